// EN 16931 business rules on the document, its parties, references and payment (BR-01..BR-20,
// BR-29, BR-49..BR-57, BR-61..BR-63, BR-CO-03, BR-CO-19, BR-CO-26), in our words.

import type { Address, Invoice } from '../model/invoice-model.ts';
import { code, filled, missing } from './facts.ts';
import { eachRule, type Rule, rule } from './rule.ts';

const where = (invoice: Invoice, term: string) => missing(invoice.path, term);
const CREDIT_TRANSFER = new Set(['30', '58']);

function countryMissing(address: Address | undefined): string | false {
  return !!address && !filled(address.countryCode) && missing(address.path, 'country code');
}

export const DOCUMENT_RULES: readonly Rule[] = [
  rule('BR-01', 'An invoice must say which specification it follows (BT-24).', (i) => !filled(i.specification) && where(i, 'BT-24')),
  rule('BR-02', 'An invoice must have an invoice number (BT-1).', (i) => !filled(i.number) && where(i, 'BT-1')),
  rule('BR-03', 'An invoice must have an issue date (BT-2).', (i) => !filled(i.issueDate) && where(i, 'BT-2')),
  rule('BR-04', 'An invoice must have a type code (BT-3).', (i) => !filled(i.typeCode) && where(i, 'BT-3')),
  rule('BR-05', 'An invoice must have an invoice currency code (BT-5).', (i) => !filled(i.currency) && where(i, 'BT-5')),
  rule('BR-06', "An invoice must carry the seller's name (BT-27).", (i) => !filled(i.seller?.name) && where(i, 'BT-27')),
  rule('BR-07', "An invoice must carry the buyer's name (BT-44).", (i) => !filled(i.buyer?.name) && where(i, 'BT-44')),
  rule('BR-08', "An invoice must carry the seller's postal address (BG-5).", (i) => !i.seller?.address && where(i, 'BG-5')),
  rule('BR-09', "The seller's postal address must have a country code (BT-40).", (i) => countryMissing(i.seller?.address)),
  rule('BR-10', "An invoice must carry the buyer's postal address (BG-8).", (i) => !i.buyer?.address && where(i, 'BG-8')),
  rule('BR-11', "The buyer's postal address must have a country code (BT-55).", (i) => countryMissing(i.buyer?.address)),
  rule('BR-12', 'An invoice must state the sum of line net amounts (BT-106).', (i) => !i.totals?.lineNetTotal && where(i, 'BT-106')),
  rule('BR-13', 'An invoice must state the total without VAT (BT-109).', (i) => !i.totals?.taxExclusive && where(i, 'BT-109')),
  rule('BR-14', 'An invoice must state the total with VAT (BT-112).', (i) => !i.totals?.taxInclusive && where(i, 'BT-112')),
  rule('BR-15', 'An invoice must state the amount due for payment (BT-115).', (i) => !i.totals?.payable && where(i, 'BT-115')),
  rule('BR-16', 'An invoice must have at least one line (BG-25).', (i) => i.lines.length === 0 && where(i, 'BG-25')),
  rule('BR-17', 'A payee other than the seller must be named (BT-59).', (i) => !!i.payee && !filled(i.payee.name) && missing(i.payee.path, 'BT-59')),
  rule(
    'BR-18',
    "A seller's tax representative must be named (BT-62).",
    (i) => !!i.taxRepresentative && !filled(i.taxRepresentative.name) && missing(i.taxRepresentative.path, 'BT-62'),
  ),
  rule(
    'BR-19',
    "A seller's tax representative must have a postal address (BG-12).",
    (i) => !!i.taxRepresentative && !i.taxRepresentative.address && missing(i.taxRepresentative.path, 'BG-12'),
  ),
  rule('BR-20', "The tax representative's postal address must have a country code (BT-69).", (i) => countryMissing(i.taxRepresentative?.address)),
  rule(
    'BR-56',
    "A seller's tax representative must have a VAT identifier (BT-63).",
    (i) => !!i.taxRepresentative && !filled(i.taxRepresentative.vatId) && missing(i.taxRepresentative.path, 'BT-63'),
  ),
  rule('BR-29', 'The invoicing period must not end before it starts (BT-73, BT-74).', (i) => {
    const period = i.invoicePeriod;
    return !!period?.start?.iso && !!period.end?.iso && period.end.iso < period.start.iso && period.end.path;
  }),
  rule('BR-CO-19', 'An invoicing period must give a start date, an end date, or both (BG-14).', (i) => {
    const period = i.invoicePeriod;
    if (!period || period.start || period.end) return false;
    // UBL's InvoicePeriod also carries the VAT point date code (BT-8), which alone is allowed.
    return !(i.syntax === 'UBL' && period.descriptionCode) && missing(period.path, 'BT-73/BT-74');
  }),
  rule(
    'BR-CO-03',
    'The VAT point date (BT-7) and the VAT point date code (BT-8) are mutually exclusive.',
    (i) => !!i.vatPointDate && !!i.vatPointDateCode && i.vatPointDateCode.path,
  ),
  rule('BR-CO-26', 'The seller must be identified by an identifier (BT-29), a legal registration (BT-30) or a VAT identifier (BT-31).', (i) => {
    const seller = i.seller;
    if (!seller) return false;
    const identified = seller.identifiers.some((id) => id.scheme !== 'SEPA') || !!seller.legalRegistration || !!seller.vatId;
    return !identified && missing(seller.path, 'BT-29/BT-30/BT-31');
  }),
  rule('BR-53', 'With a VAT accounting currency (BT-6), the VAT total in that currency (BT-111) must be given.', (i) => {
    const currency = code(i.vatAccountingCurrency);
    return !!currency && !i.totals?.vatTotals.some((total) => total.currency === currency) && where(i, 'BT-111');
  }),
  rule('BR-57', 'A deliver-to address must have a country code (BT-80).', (i) => countryMissing(i.delivery?.address)),
  rule(
    'BR-62',
    "The seller's electronic address (BT-34) must have a scheme.",
    (i) => !!i.seller?.electronicAddress && !i.seller.electronicAddress.scheme && i.seller.electronicAddress.path,
  ),
  rule(
    'BR-63',
    "The buyer's electronic address (BT-49) must have a scheme.",
    (i) => !!i.buyer?.electronicAddress && !i.buyer.electronicAddress.scheme && i.buyer.electronicAddress.path,
  ),
  eachRule(
    'BR-52',
    'A supporting document must have a reference (BT-122).',
    (i) => i.supportingDocuments,
    (doc) => !filled(doc.reference),
  ),
  eachRule(
    'BR-55',
    'A preceding invoice reference must give the invoice number (BT-25).',
    (i) => i.precedingInvoices,
    (ref) => !filled(ref.reference),
  ),
  eachRule(
    'BR-49',
    'A payment instruction must have a payment means type code (BT-81).',
    (i) => i.paymentMeans,
    (means) => !filled(means.typeCode),
  ),
  eachRule(
    'BR-50',
    'A credit transfer account must have an account identifier (BT-84).',
    (i) => i.paymentMeans.filter((means) => CREDIT_TRANSFER.has(code(means.typeCode) ?? '')).flatMap((means) => means.creditTransfers),
    (account) => !filled(account.accountId),
  ),
  eachRule(
    'BR-61',
    'A credit transfer (payment means 30 or 58) must give the payment account identifier (BT-84).',
    (i) => i.paymentMeans.filter((means) => CREDIT_TRANSFER.has(code(means.typeCode) ?? '')),
    // In CII an absent account is CII-SR-470's to report; BR-61 there looks at the accounts given.
    (means, i) =>
      i.syntax === 'CII' ? means.creditTransfers.some((account) => !account.accountId) : !means.creditTransfers.some((account) => account.accountId),
  ),
  // CEN's CII artefact makes BR-51 fatal, its UBL artefact a warning: one rule per syntax.
  ...(['CII', 'UBL'] as const).map((syntax) =>
    eachRule(
      'BR-51',
      'A payment card number (BT-87) should show at most the last 4 to 6 digits.',
      (i) => (i.syntax === syntax ? i.paymentMeans.flatMap((means) => (means.card?.accountNumber ? [means.card.accountNumber] : [])) : []),
      (number) => number.value.trim().length > 10,
      syntax === 'CII' ? 'fatal' : 'warning',
    ),
  ),
];
