// JSON invoice -> the XML of a target format, checked: what the format cannot carry and what no
// XML should be written without (an account for a credit transfer, a seller identifier) first,
// then the amounts, the model, the writer, and our rule set on the XML read back as a receiver would.

import { issueSentences } from '../invoice-issues.ts';
import { readInvoice } from '../read/read-invoice.ts';
import { EInvoiceInvalidError, reportOf, type RuleReport } from '../check/rule-report.ts';
import { checkInvoice } from '../rules/rule-sets.ts';
import { writeCii } from '../write/cii.ts';
import { writeUbl } from '../write/ubl.ts';
import { makeInvoiceSchema, type MakeInvoice } from './invoice-json.ts';
import { computeAmounts } from './json-amounts.ts';
import { jsonToModel } from './json-to-model.ts';
import { type EInvoiceFormat, TARGETS } from './targets.ts';

/**
 * The JSON cannot be made into this format: each problem is a sentence naming its field. `kind`:
 * `shape` (the JSON's fields), `totals` (stated amounts the lines contradict), `other` (the format).
 */
export class MakeInputError extends Error {
  override readonly name = 'MakeInputError';
  constructor(
    readonly problems: string[],
    readonly kind: 'shape' | 'totals' | 'other' = 'other',
  ) {
    super(problems.join('; '));
  }
}

export interface MadeEInvoice {
  xml: string;
  format: EInvoiceFormat;
  /** Our rule set's verdict: no fatal finding (a fatal one throws EInvoiceInvalidError), the warnings. */
  report: RuleReport;
}

/** The JSON as a MakeInvoice, or MakeInputError naming each field under `from` (invoice, data, options.e_invoice.invoice). */
export function parseMakeInvoice(input: unknown, from: string): MakeInvoice {
  const parsed = makeInvoiceSchema.safeParse(input);
  if (!parsed.success) throw new MakeInputError(issueSentences(parsed.error.issues, input, from), 'shape');
  return parsed.data;
}

const CREDIT_TRANSFER = new Set(['30', '58']);

/** The problems to refuse before any XML is written: fields the format has no place for, and what the issue measured. */
function inputProblems(invoice: MakeInvoice, format: EInvoiceFormat, field: string): string[] {
  const target = TARGETS[format];
  if (target.refused) return [`format ${format} ${target.refused}`];
  const problems = (target.uncarried?.(invoice) ?? []).map((path) => `${field}.${path} cannot be carried by ${format}: leave it out or choose another format`);
  // CII-SR-470 / BR-61: a credit transfer names the account to pay into.
  if (CREDIT_TRANSFER.has(invoice.payment.means_code) && invoice.payment.iban === undefined)
    problems.push(`${field}.payment.iban is required for a credit transfer (means_code ${invoice.payment.means_code}; BR-61)`);
  // BR-CO-26: a tax number (BT-32) alone does not identify the seller.
  const seller = invoice.seller;
  if (!seller.identifiers?.length && seller.legal_id === undefined && seller.vat_id === undefined)
    problems.push(`${field}.seller needs identifiers (BT-29), legal_id (BT-30) or vat_id (BT-31) (BR-CO-26); tax_number (BT-32) alone does not identify it`);
  return problems;
}

/** The XML of `format`, not yet checked by the rules; throws MakeInputError (400 naming fields). */
export function writeEInvoice(invoice: MakeInvoice, format: EInvoiceFormat, field = 'invoice'): { xml: string } {
  const target = TARGETS[format];
  const early = inputProblems(invoice, format, field);
  if (early.length > 0) throw new MakeInputError(early);
  const { computed, problems } = computeAmounts(invoice, field);
  if (!computed) throw new MakeInputError(problems, 'totals');
  const model = jsonToModel(invoice, computed, target, field);
  return { xml: target.syntax === 'CII' ? writeCii(model) : writeUbl(model) };
}

/** The checked XML of `format`; throws MakeInputError (400 naming fields) or EInvoiceInvalidError (our rules refuse it). */
export function makeEInvoice(invoice: MakeInvoice, format: EInvoiceFormat, field = 'invoice'): MadeEInvoice {
  const target = TARGETS[format];
  const { xml } = writeEInvoice(invoice, format, field);
  const report = reportOf(target.ruleSet, checkInvoice(readInvoice(xml), target.ruleSet));
  if (report.fatal.length > 0) throw new EInvoiceInvalidError(`The ${format} XML written from the invoice`, report);
  return { xml, format, report };
}
