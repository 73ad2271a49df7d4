// Peppol BIS 3.0 restrictions on codes and on how often a reference may appear: its subsets of
// the code lists (CL001..CL007), the document type codes of profile 01 (P0100, P0101, P0112), the
// VAT category an exemption reason code implies (P0104..P0111), and one project reference or
// invoiced object per document or line (R006, R080, R100). Checked on the XML, per syntax, as
// Peppol's artefacts write them (some exist in one syntax only).

import type { Invoice } from '../model/invoice-model.ts';
import type { Node } from '../xml/located-node.ts';
import { ALLOWANCE_REASON_CODES, CHARGE_REASON_CODES, MIME_CODES, PEPPOL_CURRENCY_CODES, PEPPOL_PERIOD_DESCRIPTION_CODES } from '../codes/code-lists.ts';
import { bothIn } from './peppol.ts';
import type { Rule } from './rule.ts';

const words = (list: string) => new Set(list.split(' '));
const INVOICE_TYPES_01 = words('71 80 82 84 102 218 219 326 331 380 382 383 384 386 388 393 395 553 575 623 780 817 870 875 876 877');
const CREDIT_NOTE_TYPES_01 = words('381 396 81 83 532');
/** Exemption reason code -> the VAT category it requires (P0104..P0111). */
const EXEMPTION_CATEGORY: [id: string, reason: string, category: string][] = [
  ['PEPPOL-EN16931-P0104', 'VATEX-EU-G', 'G'],
  ['PEPPOL-EN16931-P0105', 'VATEX-EU-O', 'O'],
  ['PEPPOL-EN16931-P0106', 'VATEX-EU-IC', 'K'],
  ['PEPPOL-EN16931-P0107', 'VATEX-EU-AE', 'AE'],
  ['PEPPOL-EN16931-P0108', 'VATEX-EU-D', 'E'],
  ['PEPPOL-EN16931-P0109', 'VATEX-EU-F', 'E'],
  ['PEPPOL-EN16931-P0110', 'VATEX-EU-I', 'E'],
  ['PEPPOL-EN16931-P0111', 'VATEX-EU-J', 'E'],
];
const UBL_AMOUNTS = [
  'cbc:Amount',
  'cbc:BaseAmount',
  'cbc:PriceAmount',
  'cbc:TaxAmount',
  'cbc:TaxableAmount',
  'cbc:LineExtensionAmount',
  'cbc:TaxExclusiveAmount',
  'cbc:TaxInclusiveAmount',
  'cbc:AllowanceTotalAmount',
  'cbc:ChargeTotalAmount',
  'cbc:PrepaidAmount',
  'cbc:PayableRoundingAmount',
  'cbc:PayableAmount',
];

type Check = (root: Node, invoice: Invoice) => Iterable<Node | string | false | undefined>;

/** A rule over the XML with one check per syntax; a syntax without a check is not checked. */
export function xmlRule(id: string, text: string, checks: { UBL?: Check; CII?: Check }): Rule {
  return {
    id,
    flag: 'fatal',
    text,
    *check({ invoice, root }) {
      const check = checks[invoice.syntax];
      if (!root || !check) return;
      for (const found of check(root, invoice)) if (found) yield typeof found === 'string' ? found : found.path;
    },
  };
}

const trimmed = (node: Node | undefined) => node?.text.trim() ?? '';
/** The Peppol profile number (NN of urn:fdc:peppol.eu:2017:poacc:billing:NN:1.0), 'Unknown' when there is none. */
const profileOf = (invoice: Invoice) => {
  const process = invoice.businessProcess?.value.trim() ?? '';
  return /urn:fdc:peppol.eu:2017:poacc:billing:([0-9]{2}):1.0/.test(process) ? process.split(':')[6] : 'Unknown';
};
const ublReasonCodes = (root: Node, indicator: string) =>
  root
    .descendants('cac:AllowanceCharge')
    .filter((ac) => ac.all('cbc:ChargeIndicator').some((node) => node.text === indicator))
    .flatMap((ac) => ac.all('cbc:AllowanceChargeReasonCode'));
const ciiReasonCodes = (root: Node, indicator: string) =>
  root
    .descendants('ram:SpecifiedTradeAllowanceCharge')
    .filter((ac) => trimmed(ac.at('ram:ChargeIndicator/udt:Indicator')) === indicator)
    .flatMap((ac) => ac.all('ram:ReasonCode'));
const notIn = (codes: ReadonlySet<string>, nodes: Node[]) => nodes.filter((node) => !codes.has(node.text.trim()));
const headerAgreement = (root: Node) => root.at('rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement');
const moreThanOne = (nodes: Node[]) => (nodes.length > 1 ? [nodes[1]!] : []);
const ciiReferences = (parent: Node | undefined, path: string, type: string) =>
  parent?.each(path).filter((ref) => trimmed(ref.one('ram:TypeCode')) === type) ?? [];

export const PEPPOL_CODE_RULES: readonly Rule[] = [
  xmlRule('PEPPOL-EN16931-CL001', 'An attachment’s MIME code must be one Peppol accepts (PDF, PNG, JPEG, CSV, XLSX, ODS).', {
    UBL: (root) =>
      root.descendants('cbc:EmbeddedDocumentBinaryObject').filter((node) => node.attr('mimeCode') !== undefined && !MIME_CODES.has(node.attr('mimeCode')!)),
    CII: (root) =>
      root.descendants('ram:AttachmentBinaryObject').filter((node) => node.attr('mimeCode') !== undefined && !MIME_CODES.has(node.attr('mimeCode')!)),
  }),
  xmlRule('PEPPOL-EN16931-CL002', 'An allowance reason code must be in Peppol’s subset of UNTDID 5189.', {
    UBL: (root) => notIn(ALLOWANCE_REASON_CODES, ublReasonCodes(root, 'false')),
    CII: (root) => notIn(ALLOWANCE_REASON_CODES, ciiReasonCodes(root, 'false')),
  }),
  xmlRule('PEPPOL-EN16931-CL003', 'A charge reason code must be in UNTDID 7161.', {
    UBL: (root) => notIn(CHARGE_REASON_CODES, ublReasonCodes(root, 'true')),
    CII: (root) => notIn(CHARGE_REASON_CODES, ciiReasonCodes(root, 'true')),
  }),
  xmlRule('PEPPOL-EN16931-CL006', 'An invoice period description code must be 3, 35 or 432 (UNTDID 2005).', {
    UBL: (root) =>
      notIn(
        PEPPOL_PERIOD_DESCRIPTION_CODES,
        root.descendants('cac:InvoicePeriod').flatMap((period) => period.all('cbc:DescriptionCode')),
      ),
  }),
  xmlRule('PEPPOL-EN16931-CL007', 'Every currency code on an amount must be an ISO 4217 code.', {
    UBL: (root) => UBL_AMOUNTS.flatMap((name) => root.descendants(name)).filter((node) => !PEPPOL_CURRENCY_CODES.has(node.attr('currencyID') ?? '')),
    CII: (root) =>
      root.descendants('ram:TaxTotalAmount').filter((node) => node.attr('currencyID') !== undefined && !PEPPOL_CURRENCY_CODES.has(node.attr('currencyID')!)),
  }),
  xmlRule('PEPPOL-EN16931-P0100', 'With profile 01, the invoice type code (BT-3) must be one the profile allows.', {
    UBL: (root, i) => (profileOf(i) === '01' ? notIn(INVOICE_TYPES_01, root.all('cbc:InvoiceTypeCode')) : []),
    // Peppol's CII rule looks for ram:ExchangedDocument, which CII never has (it is rsm:), so in CII it never fails.
  }),
  xmlRule('PEPPOL-EN16931-P0101', 'With profile 01, the credit note type code (BT-3) must be one the profile allows.', {
    UBL: (root, i) => (profileOf(i) === '01' ? notIn(CREDIT_NOTE_TYPES_01, root.all('cbc:CreditNoteTypeCode')) : []),
  }),
  xmlRule('PEPPOL-EN16931-P0112', 'Invoice type codes 326 and 384 are allowed only between German parties.', {
    UBL: (root, i) => root.all('cbc:InvoiceTypeCode').filter((node) => ['326', '384'].includes(node.text.trim()) && !bothIn(i, 'DE')),
  }),
  ...EXEMPTION_CATEGORY.map(([id, reason, category]) =>
    xmlRule(id, `A VAT exemption reason code ${reason} requires VAT category ${category}.`, {
      UBL: (root) =>
        root
          .descendants('cac:TaxCategory')
          .filter((tax) => tax.all('cbc:TaxExemptionReasonCode').some((node) => node.text.toUpperCase() === reason) && trimmed(tax.one('cbc:ID')) !== category),
    }),
  ),
  xmlRule('PEPPOL-EN16931-R006', 'The document may refer to at most one invoiced object (BT-18).', {
    CII: (root) => moreThanOne(ciiReferences(headerAgreement(root), 'ram:AdditionalReferencedDocument', '130')),
  }),
  xmlRule('PEPPOL-EN16931-R080', 'The document may carry at most one project reference (BT-11).', {
    UBL: (root, i) =>
      i.root === 'CreditNote' ? moreThanOne(root.all('cac:AdditionalDocumentReference').filter((ref) => ref.one('cbc:DocumentTypeCode')?.text === '50')) : [],
    CII: (root) => moreThanOne(ciiReferences(headerAgreement(root), 'ram:AdditionalReferencedDocument', '50')),
  }),
  xmlRule('PEPPOL-EN16931-R100', 'A line may refer to at most one invoiced object (BT-128).', {
    UBL: (root) => [...root.all('cac:InvoiceLine'), ...root.all('cac:CreditNoteLine')].flatMap((line) => moreThanOne(line.all('cac:DocumentReference'))),
    CII: (root) =>
      root
        .each('rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem')
        .flatMap((line) => moreThanOne(ciiReferences(line, 'ram:SpecifiedLineTradeSettlement/ram:AdditionalReferencedDocument', '130'))),
  }),
];
