// The XML an e_invoice option stands for: given as it is, or written from a JSON invoice (the
// option's own, or a template's data) by make/make-einvoice.ts, which computes and checks the sums;
// for XML given, the XSD of the profile and the profile it names (xsd-check.ts); then our EN 16931 /
// XRechnung rules on a warm thread (check/rules-pool.ts), before anything is charged.

import { EInvoiceInvalidError, reportOf, ruleSetOfProfile, type RuleReport } from './check/rule-report.ts';
import { checkRulesInWorker } from './check/rules-pool.ts';
import { MakeInputError, parseMakeInvoice, writeEInvoice } from './make/make-einvoice.ts';
import type { EInvoiceFormat } from './make/targets.ts';
import type { EInvoiceProfile } from './profiles.ts';
import { checkInvoiceXml } from './xsd-check.ts';

/** The maker's format for a render's profile (and syntax: UBL only for XRechnung); MINIMUM and BASIC WL carry no lines, so they take their XML as it is. */
const FORMATS: Partial<Record<EInvoiceProfile, EInvoiceFormat>> = {
  BASIC: 'facturx-basic',
  'EN 16931': 'facturx-en16931',
  EXTENDED: 'facturx-extended',
  XRECHNUNG: 'xrechnung-cii',
};

export interface EInvoiceRequest {
  profile: EInvoiceProfile;
  /** The syntax written from JSON: CII unless UBL (XRechnung only; the option's schema refuses others). */
  syntax?: 'CII' | 'UBL';
  xml?: string;
  invoice?: unknown;
  from_data?: true;
}

export interface CheckedInvoice {
  xml: string;
  /** The rules' verdict: no fatal finding (else EInvoiceInvalidError), the warnings to report. */
  report: RuleReport;
}

/**
 * The checked XML for the request. `data` is the template's data (from_data); `field` is where the
 * option sits ("options.e_invoice"). Throws MakeInputError, InvoiceXmlError (with lines) or
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

/** The XML for the request, written from the JSON when it is not given (throws MakeInputError on bad JSON). */
export function invoiceXml(request: EInvoiceRequest, data: unknown, field: string): string {
  if (request.xml !== undefined) return request.xml;
  const from = request.from_data ? 'data' : `${field}.invoice`;
  const written = FORMATS[request.profile];
  if (!written) throw new MakeInputError([`${field}.profile ${request.profile} carries no invoice lines: give its CII XML as ${field}.xml instead`]);
  if (request.from_data && data === undefined) throw new MakeInputError([`${field}.from_data needs a template_id render whose data is the invoice`]);
  const format = request.syntax === 'UBL' ? 'xrechnung-ubl' : written;
  // Written only: the rules run once, on the warm thread, in checkedInvoiceXml.
  return writeEInvoice(parseMakeInvoice(request.from_data ? data : request.invoice, from), format, from).xml;
}
