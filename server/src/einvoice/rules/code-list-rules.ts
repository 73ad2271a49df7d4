// BR-CL-*: the coded values an invoice carries must come from their code lists (the lists are
// data in codes/code-lists.ts). Where the two syntaxes' artefacts apply a list to different
// elements, the rule says so.

import * as lists from '../codes/code-lists.ts';
import type { Address, Identifier, Invoice, Located } from '../model/invoice-model.ts';
import { lineAllowanceCharges } from './facts.ts';
import type { Rule } from './rule.ts';
import type { Node } from '../xml/located-node.ts';

type Pick = (invoice: Invoice) => (Located | undefined)[];

/** A rule that every picked value is in the list (`list` may depend on the invoice's syntax). */
function listRule(
  id: string,
  text: string,
  pick: Pick,
  list: ReadonlySet<string> | ((invoice: Invoice) => ReadonlySet<string>),
  normalize: (value: string) => string = (value) => value.trim(),
): Rule {
  return {
    id,
    flag: 'fatal',
    text,
    *check({ invoice }) {
      const codes = typeof list === 'function' ? list(invoice) : list;
      for (const value of pick(invoice)) if (value && !codes.has(normalize(value.value))) yield value.path;
    },
  };
}

/** The scheme of each identifier, located on the identifier. */
const schemes = (ids: (Identifier | undefined)[]): Located[] =>
  ids.flatMap((id) => (id?.scheme === undefined ? [] : [{ value: id.scheme, path: `${id.path}/@schemeID` }]));

const addresses = (i: Invoice): (Address | undefined)[] => [i.seller?.address, i.buyer?.address, i.taxRepresentative?.address, i.delivery?.address];
const allAllowanceCharges = (i: Invoice) => [...i.allowancesCharges, ...lineAllowanceCharges(i)];
const countries = (i: Invoice) => (i.syntax === 'UBL' ? lists.COUNTRY_CODES_UBL : lists.COUNTRY_CODES_CII);

function typeCodes(invoice: Invoice): ReadonlySet<string> {
  if (invoice.root === 'Invoice') return lists.UBL_INVOICE_TYPE_CODES;
  if (invoice.root === 'CreditNote') return lists.UBL_CREDIT_NOTE_TYPE_CODES;
  return lists.INVOICE_TYPE_CODES;
}

/** The amounts whose currencyID BR-CL-03 checks: every amount in UBL, the VAT totals in CII. */
function amountCurrencies(i: Invoice): Located[] {
  const totals = i.totals;
  const amounts =
    i.syntax === 'CII'
      ? (totals?.vatTotals ?? [])
      : [
          ...(totals
            ? [
                totals.lineNetTotal,
                totals.allowanceTotal,
                totals.chargeTotal,
                totals.taxExclusive,
                totals.taxInclusive,
                totals.prepaid,
                totals.rounding,
                totals.payable,
                ...totals.vatTotals,
              ]
            : []),
          ...allAllowanceCharges(i).flatMap((entry) => [entry.amount, entry.baseAmount]),
          ...i.vatBreakdown.flatMap((entry) => [entry.taxableAmount, entry.taxAmount]),
          ...i.lines.flatMap((line) => [line.netAmount, line.netPrice, line.priceDiscount, line.grossPrice]),
        ];
  return amounts.flatMap((amount) => (amount?.currency === undefined ? [] : [{ value: amount.currency, path: `${amount.path}/@currencyID` }]));
}

export const CODE_LIST_RULES: readonly Rule[] = [
  listRule('BR-CL-01', 'The invoice type code (BT-3) must be a UNTDID 1001 code allowed for the document.', (i) => [i.typeCode], typeCodes),
  listRule('BR-CL-03', 'Currency codes on amounts must be ISO 4217 codes.', amountCurrencies, lists.CURRENCY_CODES),
  listRule('BR-CL-04', 'The invoice currency code (BT-5) must be an ISO 4217 code.', (i) => [i.currency], lists.CURRENCY_CODES),
  listRule('BR-CL-05', 'The VAT accounting currency code (BT-6) must be an ISO 4217 code.', (i) => [i.vatAccountingCurrency], lists.CURRENCY_CODES),
  listRule(
    'BR-CL-06',
    'The VAT point date code (BT-8) must be a code of its list.',
    (i) => [i.vatPointDateCode],
    (i) => (i.syntax === 'UBL' ? lists.UBL_VAT_DATE_CODES : lists.CII_VAT_DATE_CODES),
  ),
  listRule(
    'BR-CL-07',
    'The invoiced object identifier scheme (BT-18) must be a UNTDID 1153 code.',
    (i) => schemes([i.invoicedObject]),
    lists.OBJECT_IDENTIFIER_SCHEMES,
  ),
  listRule(
    'BR-CL-08',
    'An invoice note subject code (BT-21) must be a UNTDID 4451 code.',
    (i) => i.notes.map((note) => note.subjectCode),
    lists.NOTE_SUBJECT_CODES,
  ),
  listRule(
    'BR-CL-10',
    'A party identifier scheme (BT-29, BT-46, BT-60) must be an ISO 6523 ICD code (or SEPA for the seller and payee).',
    (i) => [
      ...schemes([...(i.seller?.identifiers ?? []), ...(i.payee?.identifiers ?? [])]).filter((scheme) => scheme.value !== 'SEPA'),
      ...schemes(i.buyer?.identifiers ?? []),
    ],
    lists.ICD_SCHEMES,
  ),
  listRule(
    'BR-CL-11',
    'A legal registration identifier scheme (BT-30, BT-47, BT-61) must be an ISO 6523 ICD code.',
    (i) => schemes([i.seller?.legalRegistration, i.buyer?.legalRegistration, i.payee?.legalRegistration]),
    lists.ICD_SCHEMES,
  ),
  listRule(
    'BR-CL-13',
    'An item classification scheme (BT-158) must be a UNTDID 7143 code.',
    (i) =>
      i.lines.flatMap((line) =>
        line.item.classifications.map((id) => (id.scheme === undefined ? undefined : { value: id.scheme, path: `${id.path}/@listID` })),
      ),
    lists.ITEM_CLASSIFICATION_SCHEMES,
  ),
  listRule('BR-CL-14', 'Country codes in addresses must be ISO 3166-1 alpha-2 codes.', (i) => addresses(i).map((address) => address?.countryCode), countries),
  listRule(
    'BR-CL-15',
    'The item country of origin (BT-159) must be an ISO 3166-1 alpha-2 code.',
    (i) => i.lines.map((line) => line.item.originCountry),
    countries,
  ),
  listRule(
    'BR-CL-16',
    'The payment means code (BT-81) must be a UNTDID 4461 code.',
    (i) => i.paymentMeans.map((means) => means.typeCode),
    lists.PAYMENT_MEANS_CODES,
  ),
  listRule(
    'BR-CL-17',
    'The VAT category of a document allowance or charge (BT-95, BT-102) must be a UNTDID 5305 code EN 16931 uses.',
    (i) => [...i.allowancesCharges.map((entry) => entry.vatCategory), ...(i.syntax === 'UBL' ? i.vatBreakdown.map((entry) => entry.categoryCode) : [])],
    lists.VAT_CATEGORY_CODES,
  ),
  listRule(
    'BR-CL-18',
    'The VAT category of a line or breakdown (BT-151, BT-118) must be a UNTDID 5305 code EN 16931 uses.',
    (i) => [...i.lines.map((line) => line.vatCategory), ...(i.syntax === 'CII' ? i.vatBreakdown.map((entry) => entry.categoryCode) : [])],
    lists.VAT_CATEGORY_CODES,
  ),
  listRule(
    'BR-CL-19',
    'An allowance reason code (BT-98, BT-140) must be a UNTDID 5189 code.',
    (i) =>
      allAllowanceCharges(i)
        .filter((entry) => !entry.isCharge)
        .map((entry) => entry.reasonCode),
    lists.ALLOWANCE_REASON_CODES,
  ),
  listRule(
    'BR-CL-20',
    'A charge reason code (BT-105, BT-145) must be a UNTDID 7161 code.',
    (i) =>
      allAllowanceCharges(i)
        .filter((entry) => entry.isCharge)
        .map((entry) => entry.reasonCode),
    lists.CHARGE_REASON_CODES,
  ),
  listRule(
    'BR-CL-21',
    'An item standard identifier scheme (BT-157) must be an ISO 6523 ICD code.',
    (i) => schemes(i.lines.map((line) => line.item.standardId)),
    lists.ICD_SCHEMES,
  ),
  listRule(
    'BR-CL-22',
    'A VAT exemption reason code (BT-121) must be a VATEX code.',
    (i) => i.vatBreakdown.map((entry) => entry.exemptionReasonCode),
    lists.VATEX_CODES,
    (value) =>
      // VATEX codes are compared without regard to case.
      value.trim().toUpperCase(),
  ),
  listRule(
    'BR-CL-23',
    'Units of measure (BT-130, BT-150) must be UN/ECE Recommendation 20 or 21 codes.',
    (i) =>
      i.lines
        .flatMap((line) => [line.quantity, line.baseQuantity])
        .map((q) => (q?.unitCode === undefined ? undefined : { value: q.unitCode, path: `${q.path}/@unitCode` })),
    lists.UNIT_CODES,
  ),
  listRule(
    'BR-CL-24',
    'An attached document (BT-125) must be of an allowed MIME type.',
    (i) =>
      i.supportingDocuments.map((doc) =>
        doc.attachment?.mimeCode === undefined ? undefined : { value: doc.attachment.mimeCode, path: `${doc.attachment.path}/@mimeCode` },
      ),
    lists.MIME_CODES,
  ),
  listRule(
    'BR-CL-25',
    'An electronic address scheme (BT-34, BT-49) must be a CEF EAS code.',
    (i) => schemes([i.seller?.electronicAddress, i.buyer?.electronicAddress]),
    lists.EAS_SCHEMES,
  ),
  listRule(
    'BR-CL-26',
    'A delivery location identifier scheme (BT-71) must be an ISO 6523 ICD code.',
    (i) => schemes([i.delivery?.locationId]),
    lists.ICD_SCHEMES,
  ),
  {
    id: 'BR-CO-09',
    flag: 'fatal',
    text: 'A VAT identifier (BT-31, BT-48, BT-63) must start with a country prefix (ISO 3166-1, or EL, XI).',
    *check({ invoice, root }) {
      if (!root) return;
      if (invoice.syntax === 'CII') {
        const ids = root.descendants('ram:SpecifiedTaxRegistration').flatMap((registration) => registration.all('ram:ID'));
        for (const id of ids.filter((node) => node.attr('schemeID') === 'VA')) if (!lists.VAT_PREFIXES_CII.has(id.text.slice(0, 2))) yield id.path;
        return;
      }
      // UBL's artefact looks the first two characters up in the list written as one string, so
      // a missing identifier (an empty string) passes.
      const vatSchemes = root.descendants('cac:PartyTaxScheme').filter((scheme) => scheme.all('cac:TaxScheme').some((tax) => vatScheme(tax)));
      for (const scheme of vatSchemes) {
        const prefix = scheme.one('cbc:CompanyID')?.text.slice(0, 2) ?? '';
        if (!UBL_PREFIX_TEXT.includes(prefix)) yield scheme.one('cbc:CompanyID')!.path;
      }
    },
  },
];

const UBL_PREFIX_TEXT = ` ${[...lists.VAT_PREFIXES_UBL].join(' ')} `;
const vatScheme = (tax: Node) => (tax.one('cbc:ID')?.text ?? '').toUpperCase().trim().replace(/\s+/g, ' ') === 'VAT';
