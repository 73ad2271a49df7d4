// Writes an invoice (invoice-schema.ts) as UN/CEFACT CII XML (D16B) in the element order the
// Factur-X 1.07.3 schemas require, for the BASIC, EN 16931, EXTENDED and XRECHNUNG profiles.
// Fields the BASIC profile does not know (contacts, item descriptions, BIC, account name) are
// written from EN 16931 up. Hand-written: no maintained package takes this JSON (docs/decisions.md).

import { PROFILES, type EInvoiceProfile } from './profiles.ts';
import type { Invoice } from './invoice-schema.ts';

/** The profiles an invoice can be written for; MINIMUM and BASIC WL carry no lines, so they take their XML as it is. */
export const JSON_PROFILES: readonly EInvoiceProfile[] = ['BASIC', 'EN 16931', 'EXTENDED', 'XRECHNUNG'];

const NS = [
  'xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"',
  'xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100"',
  'xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"',
  'xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"',
].join(' ');

const XRECHNUNG_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

type Node = string | false | undefined | Node[];

/** The invoice's CII XML for the profile. */
export function invoiceToCii(invoice: Invoice, profile: EInvoiceProfile): string {
  const rich = profile !== 'BASIC';
  const currency = invoice.currency;
  const body: Node = [
    el('rsm:ExchangedDocumentContext', [
      // BT-23, the business process: XRechnung takes over Peppol's R001, which requires it; the value is the one KoSIT's examples use.
      profile === 'XRECHNUNG' && el('ram:BusinessProcessSpecifiedDocumentContextParameter', el('ram:ID', text(XRECHNUNG_PROCESS))),
      el('ram:GuidelineSpecifiedDocumentContextParameter', el('ram:ID', text(PROFILES[profile].guideline))),
    ]),
    el('rsm:ExchangedDocument', [
      el('ram:ID', text(invoice.number)),
      el('ram:TypeCode', invoice.type_code),
      el('ram:IssueDateTime', dateTime(invoice.issue_date)),
      invoice.note !== undefined && el('ram:IncludedNote', el('ram:Content', text(invoice.note))),
    ]),
    el('rsm:SupplyChainTradeTransaction', [
      invoice.lines.map((line, index) =>
        el('ram:IncludedSupplyChainTradeLineItem', [
          el('ram:AssociatedDocumentLineDocument', el('ram:LineID', text(line.id ?? String(index + 1)))),
          el('ram:SpecifiedTradeProduct', [
            el('ram:Name', text(line.name)),
            rich && line.description !== undefined && el('ram:Description', text(line.description)),
          ]),
          el('ram:SpecifiedLineTradeAgreement', el('ram:NetPriceProductTradePrice', el('ram:ChargeAmount', price(line.unit_price)))),
          el('ram:SpecifiedLineTradeDelivery', `<ram:BilledQuantity unitCode="${line.unit_code}">${quantity(line.quantity)}</ram:BilledQuantity>`),
          el('ram:SpecifiedLineTradeSettlement', [
            el('ram:ApplicableTradeTax', [
              el('ram:TypeCode', 'VAT'),
              el('ram:CategoryCode', line.vat_category),
              el('ram:RateApplicablePercent', percent(line.vat_rate)),
            ]),
            el('ram:SpecifiedTradeSettlementLineMonetarySummation', el('ram:LineTotalAmount', money(line.line_total))),
          ]),
        ]),
      ),
      el('ram:ApplicableHeaderTradeAgreement', [
        invoice.buyer_reference !== undefined && el('ram:BuyerReference', text(invoice.buyer_reference)),
        party('ram:SellerTradeParty', invoice.seller, rich),
        party('ram:BuyerTradeParty', invoice.buyer, rich),
        invoice.order_reference !== undefined && el('ram:BuyerOrderReferencedDocument', el('ram:IssuerAssignedID', text(invoice.order_reference))),
      ]),
      el(
        'ram:ApplicableHeaderTradeDelivery',
        invoice.delivery_date !== undefined && el('ram:ActualDeliverySupplyChainEvent', el('ram:OccurrenceDateTime', dateTime(invoice.delivery_date))),
      ),
      settlement(invoice, currency, rich),
    ]),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rsm:CrossIndustryInvoice ${NS}>\n${render(body)}</rsm:CrossIndustryInvoice>\n`;
}

function settlement(invoice: Invoice, currency: string, rich: boolean): Node {
  const { payment, totals } = invoice;
  return el('ram:ApplicableHeaderTradeSettlement', [
    payment.reference !== undefined && el('ram:PaymentReference', text(payment.reference)),
    el('ram:InvoiceCurrencyCode', currency),
    el('ram:SpecifiedTradeSettlementPaymentMeans', [
      el('ram:TypeCode', payment.means_code),
      payment.iban !== undefined &&
        el('ram:PayeePartyCreditorFinancialAccount', [
          el('ram:IBANID', payment.iban),
          rich && payment.account_name !== undefined && el('ram:AccountName', text(payment.account_name)),
        ]),
      rich && payment.bic !== undefined && el('ram:PayeeSpecifiedCreditorFinancialInstitution', el('ram:BICID', payment.bic)),
    ]),
    invoice.vat_breakdown.map((entry) =>
      el('ram:ApplicableTradeTax', [
        el('ram:CalculatedAmount', money(entry.tax_amount)),
        el('ram:TypeCode', 'VAT'),
        entry.exemption_reason !== undefined && el('ram:ExemptionReason', text(entry.exemption_reason)),
        el('ram:BasisAmount', money(entry.taxable_amount)),
        el('ram:CategoryCode', entry.vat_category),
        el('ram:RateApplicablePercent', percent(entry.vat_rate)),
      ]),
    ),
    (payment.terms !== undefined || payment.due_date !== undefined) &&
      el('ram:SpecifiedTradePaymentTerms', [
        payment.terms !== undefined && el('ram:Description', text(payment.terms)),
        payment.due_date !== undefined && el('ram:DueDateDateTime', dateTime(payment.due_date)),
      ]),
    el('ram:SpecifiedTradeSettlementHeaderMonetarySummation', [
      el('ram:LineTotalAmount', money(totals.line_total)),
      el('ram:TaxBasisTotalAmount', money(totals.tax_basis_total)),
      `<ram:TaxTotalAmount currencyID="${currency}">${money(totals.tax_total)}</ram:TaxTotalAmount>`,
      el('ram:GrandTotalAmount', money(totals.grand_total)),
      totals.prepaid !== 0 && el('ram:TotalPrepaidAmount', money(totals.prepaid)),
      el('ram:DuePayableAmount', money(totals.due_payable)),
    ]),
  ]);
}

function party(tag: string, party: Invoice['seller'], rich: boolean): Node {
  const { address, contact } = party;
  return el(tag, [
    el('ram:Name', text(party.name)),
    party.legal_id !== undefined && el('ram:SpecifiedLegalOrganization', el('ram:ID', text(party.legal_id))),
    rich &&
      contact !== undefined &&
      el('ram:DefinedTradeContact', [
        contact.name !== undefined && el('ram:PersonName', text(contact.name)),
        contact.phone !== undefined && el('ram:TelephoneUniversalCommunication', el('ram:CompleteNumber', text(contact.phone))),
        contact.email !== undefined && el('ram:EmailURIUniversalCommunication', el('ram:URIID', text(contact.email))),
      ]),
    el('ram:PostalTradeAddress', [
      address.postcode !== undefined && el('ram:PostcodeCode', text(address.postcode)),
      address.line1 !== undefined && el('ram:LineOne', text(address.line1)),
      address.line2 !== undefined && el('ram:LineTwo', text(address.line2)),
      address.city !== undefined && el('ram:CityName', text(address.city)),
      el('ram:CountryID', address.country_code),
    ]),
    party.email !== undefined && el('ram:URIUniversalCommunication', `<ram:URIID schemeID="EM">${text(party.email)}</ram:URIID>`),
    party.vat_id !== undefined && el('ram:SpecifiedTaxRegistration', `<ram:ID schemeID="VA">${text(party.vat_id)}</ram:ID>`),
    party.tax_number !== undefined && el('ram:SpecifiedTaxRegistration', `<ram:ID schemeID="FC">${text(party.tax_number)}</ram:ID>`),
  ]);
}

function el(tag: string, content: Node): Node {
  return [`<${tag}>`, content, `</${tag}>\n`];
}

function render(node: Node): string {
  if (node === false || node === undefined) return '';
  if (typeof node === 'string') return node;
  return node.map(render).join('');
}

const dateTime = (date: string) => `<udt:DateTimeString format="102">${date.replaceAll('-', '')}</udt:DateTimeString>`;
const money = (value: number) => (Math.round(value * 100) / 100).toFixed(2);
/** Unit prices may carry more decimals than amounts (up to four here). */
const price = (value: number) => String(Math.round(value * 10_000) / 10_000);
const quantity = (value: number) => String(Math.round(value * 10_000) / 10_000);
const percent = (value: number) => String(Math.round(value * 100) / 100);

function text(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these C0 controls, so they are dropped
  return value.replace(/[<>&"]/g, (char) => `&#${char.charCodeAt(0)};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}
