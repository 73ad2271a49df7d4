// The formats POST /v1/einvoice makes (docs/decisions.md, "E-invoice formats"): for each, the
// syntax written, the specification id (BT-24), the business process (BT-23) where the CIUS wants
// one, the rule set that checks the XML, and the JSON fields the format has no element for.

import { PROFILES } from '../profiles.ts';
import type { RuleSetName } from '../rules/rule-sets.ts';
import type { MakeInvoice } from './invoice-json.ts';

export const EINVOICE_FORMATS = [
  'en16931-cii',
  'en16931-ubl',
  'xrechnung-cii',
  'xrechnung-ubl',
  'peppol-ubl',
  'facturx-minimum',
  'facturx-basicwl',
  'facturx-basic',
  'facturx-en16931',
  'facturx-extended',
] as const;
export type EInvoiceFormat = (typeof EINVOICE_FORMATS)[number];

export interface Target {
  syntax: 'CII' | 'UBL';
  specification: string;
  businessProcess?: string;
  ruleSet: RuleSetName;
  /** Set on a format the JSON cannot be made into: why (the sentence goes into the 400). */
  refused?: string;
  /** Fields of the JSON invoice this format has no element for, as `field` paths, given one invoice. */
  uncarried?: (invoice: MakeInvoice) => string[];
}

const CEN = 'urn:cen.eu:en16931:2017';
const XRECHNUNG = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
const PEPPOL = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
/** The business process Peppol BIS Billing 3.0 names, which XRechnung takes over (PEPPOL-EN16931-R001). */
export const PEPPOL_BILLING_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** UBL has no element for a note's subject code (BT-21). */
const ublUncarried = (invoice: MakeInvoice): string[] =>
  (invoice.notes ?? []).flatMap((note, index) => (note.subject_code === undefined ? [] : [`notes[${index}].subject_code`]));

const BASIC_LINE_FIELDS = ['description', 'seller_item_id', 'buyer_item_id', 'classifications', 'origin_country', 'attributes'] as const;
const BASIC_FIELDS = ['sales_order_reference', 'project_reference', 'receiving_advice_reference', 'tender_reference', 'supporting_documents'] as const;
const BASIC_PAYMENT_FIELDS = ['bic', 'account_name', 'means_text', 'card'] as const;

/**
 * What the Factur-X 1.07.3 BASIC schema has no element for (checked with its XSD): contacts, the
 * BIC, account name and card, some references, supporting documents, the rounding amount, item details.
 */
function basicUncarried(invoice: MakeInvoice): string[] {
  const given = (value: unknown, path: string) => (value === undefined ? [] : [path]);
  return [
    ...BASIC_FIELDS.flatMap((name) => given(invoice[name], name)),
    ...given(invoice.seller.contact, 'seller.contact'),
    ...given(invoice.buyer.contact, 'buyer.contact'),
    ...BASIC_PAYMENT_FIELDS.flatMap((name) => given(invoice.payment[name], `payment.${name}`)),
    ...given(invoice.totals?.rounding, 'totals.rounding'),
    ...invoice.lines.flatMap((line, index) => BASIC_LINE_FIELDS.flatMap((name) => given(line[name], `lines[${index}].${name}`))),
  ];
}

const NO_LINES = 'carries no invoice lines (the PDF is the invoice): make the XML yourself and give it to a render route’s options.e_invoice.xml';

export const TARGETS: Record<EInvoiceFormat, Target> = {
  'en16931-cii': { syntax: 'CII', specification: CEN, ruleSet: 'en16931' },
  'en16931-ubl': { syntax: 'UBL', specification: CEN, ruleSet: 'en16931', uncarried: ublUncarried },
  'xrechnung-cii': { syntax: 'CII', specification: XRECHNUNG, businessProcess: PEPPOL_BILLING_PROCESS, ruleSet: 'xrechnung' },
  'xrechnung-ubl': { syntax: 'UBL', specification: XRECHNUNG, businessProcess: PEPPOL_BILLING_PROCESS, ruleSet: 'xrechnung', uncarried: ublUncarried },
  'peppol-ubl': { syntax: 'UBL', specification: PEPPOL, businessProcess: PEPPOL_BILLING_PROCESS, ruleSet: 'peppol', uncarried: ublUncarried },
  'facturx-minimum': { syntax: 'CII', specification: PROFILES.MINIMUM.guideline, ruleSet: 'en16931', refused: NO_LINES },
  'facturx-basicwl': { syntax: 'CII', specification: PROFILES['BASIC WL'].guideline, ruleSet: 'en16931', refused: NO_LINES },
  'facturx-basic': { syntax: 'CII', specification: PROFILES.BASIC.guideline, ruleSet: 'en16931', uncarried: basicUncarried },
  'facturx-en16931': { syntax: 'CII', specification: PROFILES['EN 16931'].guideline, ruleSet: 'en16931' },
  'facturx-extended': { syntax: 'CII', specification: PROFILES.EXTENDED.guideline, ruleSet: 'en16931' },
};
