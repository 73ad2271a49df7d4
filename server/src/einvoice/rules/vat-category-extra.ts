// The VAT category rules beyond the common ten: an intra-community supply (K) needs a delivery
// date or period and a deliver-to country (BR-IC-11/12); "not subject to VAT" (O) cannot be mixed
// with any other category (BR-O-11..14); Italian split payment (B) is for Italy only and never
// beside S (BR-B-01/02).

import type { Invoice, Located } from '../model/invoice-model.ts';
import { allowances, breakdownOf, charges, code, filled, missing } from './facts.ts';
import { eachRule, type Rule, rule } from './rule.ts';

const usesCategory = (invoice: Invoice, category: string) =>
  breakdownOf(invoice, category).length > 0 || [...invoice.lines, ...invoice.allowancesCharges].some((item) => code(item.vatCategory) === category);

const hasO = (invoice: Invoice) => breakdownOf(invoice, 'O').length > 0;
const notO = <T extends { vatCategory?: Located }>(list: T[]) => list.filter((item) => code(item.vatCategory) !== 'O');

export const VAT_EXTRA_RULES: readonly Rule[] = [
  rule('BR-IC-11', 'An intra-community supply (K) must give the actual delivery date (BT-72) or the invoicing period (BG-14).', (i) => {
    if (breakdownOf(i, 'K').length === 0) return false;
    const period = i.invoicePeriod;
    const ok = filled(i.delivery?.actualDate) || !!period?.start || !!period?.end || (i.syntax === 'UBL' && !!period?.descriptionCode);
    return !ok && missing(i.path, 'BT-72/BG-14');
  }),
  rule('BR-IC-12', 'An intra-community supply (K) must give the deliver-to country code (BT-80).', (i) => {
    if (breakdownOf(i, 'K').length === 0) return false;
    return !filled(i.delivery?.address?.countryCode) && missing(i.delivery?.path ?? i.path, 'BT-80');
  }),
  eachRule(
    'BR-O-11',
    'An invoice with a "not subject to VAT" (O) breakdown must have no breakdown of another category.',
    (i) => (hasO(i) ? notO(i.vatBreakdown.map((entry) => ({ ...entry, vatCategory: entry.categoryCode }))) : []),
    () => true,
  ),
  eachRule(
    'BR-O-12',
    'An invoice with a "not subject to VAT" (O) breakdown must have only O lines.',
    (i) => (hasO(i) ? notO(i.lines) : []),
    () => true,
  ),
  eachRule(
    'BR-O-13',
    'An invoice with a "not subject to VAT" (O) breakdown must have only O document allowances.',
    (i) => (hasO(i) ? notO(allowances(i)) : []),
    () => true,
  ),
  eachRule(
    'BR-O-14',
    'An invoice with a "not subject to VAT" (O) breakdown must have only O document charges.',
    (i) => (hasO(i) ? notO(charges(i)) : []),
    () => true,
  ),
  rule('BR-B-01', 'Split payment (B) is for Italian domestic invoices: every country code must be IT.', (i) => {
    if (!usesCategory(i, 'B')) return false;
    const countries = [i.seller?.address, i.buyer?.address, i.taxRepresentative?.address, i.delivery?.address].flatMap((address) =>
      address?.countryCode ? [address.countryCode] : [],
    );
    return countries.find((country) => code(country) !== 'IT')?.path;
  }),
  rule('BR-B-02', 'Split payment (B) and standard rate (S) cannot both be used on one invoice.', (i) => usesCategory(i, 'B') && usesCategory(i, 'S') && i.path),
];
