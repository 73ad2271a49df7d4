// The XML an e_invoice option stands for: given as it is, or made from a JSON invoice (the option's
// own, or a template's data) by make/make-einvoice.ts, which computes and checks the sums and runs
// our rules; then, for CII, the XSD of the profile and the profile the XML names (xsd-check.ts).

import { JSON_PROFILES } from './cii-xml.ts';
import { MakeInputError, makeEInvoice, parseMakeInvoice } from './make/make-einvoice.ts';
import type { EInvoiceFormat } from './make/targets.ts';
import type { EInvoiceProfile } from './profiles.ts';
import { checkInvoiceXml, InvoiceXmlError } from './xsd-check.ts';

/** The maker's format for a render's profile (and syntax: UBL only for XRechnung). */
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

/**
 * The checked XML for the request. `data` is the template's data (from_data); `field` is where the
 * option sits ("options.e_invoice"). Throws InvoiceDataError or InvoiceXmlError (with lines).
 */
export async function checkedInvoiceXml(request: EInvoiceRequest, data: unknown, field: string, xmllint?: string): Promise<string> {
  const xml = invoiceXml(request, data, field);
  // No UBL schema is on the machine; the XML made is checked by our rules (invoiceXml) all the same.
  if (request.syntax === 'UBL' && request.xml === undefined) return xml;
  try {
    await checkInvoiceXml(xml, request.profile, xmllint);
  } catch (error) {
    // Our own XML failing its schema is our bug, but the caller still gets the reason rather than a bad file.
    if (error instanceof InvoiceXmlError && request.xml === undefined) throw new InvoiceDataError([`the XML written from the invoice: ${error.message}`]);
    throw error;
  }
  return xml;
}

/** The XML for the request, written from the JSON when it is not given (throws InvoiceDataError on bad JSON). */
export function invoiceXml(request: EInvoiceRequest, data: unknown, field: string): string {
  if (request.xml !== undefined) return request.xml;
  const from = request.from_data ? 'data' : `${field}.invoice`;
  if (!JSON_PROFILES.includes(request.profile))
    throw new InvoiceDataError([`${field}.profile ${request.profile} carries no invoice lines: give its CII XML as ${field}.xml instead`]);
  if (request.from_data && data === undefined) throw new InvoiceDataError([`${field}.from_data needs a template_id render whose data is the invoice`]);
  const format = request.syntax === 'UBL' ? 'xrechnung-ubl' : FORMATS[request.profile]!;
  try {
    return makeEInvoice(parseMakeInvoice(request.from_data ? data : request.invoice, from), format, from).xml;
  } catch (error) {
    // EInvoiceInvalidError (our rules refuse the XML made) goes on as it is: 400 einvoice_invalid.
    if (error instanceof MakeInputError) throw new InvoiceDataError(error.problems, error.kind);
    throw error;
  }
}
