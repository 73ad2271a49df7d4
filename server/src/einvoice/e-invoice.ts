// The XML an e_invoice option stands for: given as it is, or written from a JSON invoice (the
// option's own, or a template's data), checked before anything is charged: the JSON's shape and
// totals (invoice-totals.ts); for XML given, the XSD of the profile and the profile it names
// (xsd-check.ts); then our EN 16931 / XRechnung rules on a warm thread (check/rules-pool.ts).

import { invoiceToCii, JSON_PROFILES } from './cii-xml.ts';
import { EInvoiceInvalidError, reportOf, ruleSetOfProfile, type RuleReport } from './check/rule-report.ts';
import { checkRulesInWorker } from './check/rules-pool.ts';
import { invoiceSchema } from './invoice-schema.ts';
import { issueSentences } from './invoice-issues.ts';
import { invoiceProblems } from './invoice-totals.ts';
import type { EInvoiceProfile } from './profiles.ts';
import { checkInvoiceXml } from './xsd-check.ts';

export interface EInvoiceRequest {
  profile: EInvoiceProfile;
  xml?: string;
  invoice?: unknown;
  from_data?: true;
}

/**
 * The JSON invoice cannot be made into XML as it stands: each problem names its field. `kind` says
 * which: `shape` (fields missing or of the wrong type), `totals` (stated amounts the lines
 * contradict), `other` (the option itself: a profile without lines, from_data without a template).
 */
export class InvoiceDataError extends Error {
  override readonly name = 'InvoiceDataError';
  constructor(
    readonly problems: string[],
    readonly kind: 'shape' | 'totals' | 'other' = 'other',
  ) {
    super(problems.join('; '));
  }
}

export interface CheckedInvoice {
  xml: string;
  /** The rules' verdict: no fatal finding (else EInvoiceInvalidError), the warnings to report. */
  report: RuleReport;
}

/**
 * The checked XML for the request. `data` is the template's data (from_data); `field` is where the
 * option sits ("options.e_invoice"). Throws InvoiceDataError, InvoiceXmlError (with lines) or
 * EInvoiceInvalidError (each fatal rule with its location).
 */
export async function checkedInvoiceXml(request: EInvoiceRequest, data: unknown, field: string, xmllint?: string): Promise<CheckedInvoice> {
  const xml = invoiceXml(request, data, field);
  // The XSD checks only what we did not write: our writer's output meets every profile's XSD
  // (tests/unit/einvoice), and an xmllint process per invoice was most of an e-invoice's cost
  // (docs/decisions.md, "The rules on every render").
  if (request.xml !== undefined) await checkInvoiceXml(xml, request.profile, xmllint);
  const rules = ruleSetOfProfile(request.profile);
  const report = reportOf(rules, rules ? await checkRulesInWorker(xml, rules) : []);
  if (report.fatal.length > 0) throw new EInvoiceInvalidError(sourceField(request, field), report);
  return { xml, report };
}

/** Where the invoice came from, as the caller spelled it. */
function sourceField(request: EInvoiceRequest, field: string): string {
  if (request.xml !== undefined) return `${field}.xml`;
  return request.from_data ? 'data' : `${field}.invoice`;
}

/** The XML for the request, written from the JSON when it is not given (throws InvoiceDataError on bad JSON). */
export function invoiceXml(request: EInvoiceRequest, data: unknown, field: string): string {
  if (request.xml !== undefined) return request.xml;
  const from = request.from_data ? 'data' : `${field}.invoice`;
  if (!JSON_PROFILES.includes(request.profile))
    throw new InvoiceDataError([`${field}.profile ${request.profile} carries no invoice lines: give its CII XML as ${field}.xml instead`]);
  if (request.from_data && data === undefined) throw new InvoiceDataError([`${field}.from_data needs a template_id render whose data is the invoice`]);
  const parsed = invoiceSchema.safeParse(request.from_data ? data : request.invoice);
  if (!parsed.success) {
    throw new InvoiceDataError(issueSentences(parsed.error.issues, request.from_data ? data : request.invoice, from), 'shape');
  }
  const problems = invoiceProblems(parsed.data, request.profile, from);
  if (problems.length > 0) throw new InvoiceDataError(problems, 'totals');
  return invoiceToCii(parsed.data, request.profile);
}
