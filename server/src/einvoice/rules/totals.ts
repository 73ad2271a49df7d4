// The sums an invoice must add up to (BR-CO-10..BR-CO-18), compared as the official artefacts do:
// exact decimals, sums rounded to 2 places half toward +infinity, a tolerance of 1 only where
// the rule itself allows one (the VAT amount of a rate, BR-CO-17).

import { abs, type Dec, div, fromInt, mul, round, sum } from '../model/decimal.ts';
import type { Amount, Invoice } from '../model/invoice-model.ts';
import { allowances, charges, code, missing, num, numOr0 } from './facts.ts';
import { eachRule, type Rule, rule } from './rule.ts';

const HUNDRED = fromInt(100);
const ONE = fromInt(1);

/** The stated amount differs from the expected one (or is missing while something is expected). */
function differs(stated: Amount | undefined, expected: Dec): boolean {
  const value = num(stated);
  return value === undefined || value !== expected;
}

/** The VAT totals written in the invoice currency (BT-110; BT-111 is in the accounting currency). */
const vatTotalsInInvoiceCurrency = (invoice: Invoice): Amount[] => invoice.totals?.vatTotals.filter((total) => total.currency === code(invoice.currency)) ?? [];

export const TOTAL_RULES: readonly Rule[] = [
  rule('BR-CO-10', 'The sum of line net amounts (BT-106) must equal the sum of the lines (BT-131).', (i) => {
    const totals = i.totals;
    return !!totals?.lineNetTotal && differs(totals.lineNetTotal, round(sum(i.lines.map((line) => num(line.netAmount))))) && totals.lineNetTotal.path;
  }),
  rule('BR-CO-11', 'The sum of allowances (BT-107) must equal the document allowances (BT-92).', (i) => {
    const totals = i.totals;
    if (!totals || (!totals.allowanceTotal && allowances(i).length === 0)) return false;
    return (
      differs(totals.allowanceTotal, round(sum(allowances(i).map((entry) => num(entry.amount))))) &&
      (totals.allowanceTotal?.path ?? missing(totals.path, 'BT-107'))
    );
  }),
  rule('BR-CO-12', 'The sum of charges (BT-108) must equal the document charges (BT-99).', (i) => {
    const totals = i.totals;
    if (!totals || (!totals.chargeTotal && charges(i).length === 0)) return false;
    return (
      differs(totals.chargeTotal, round(sum(charges(i).map((entry) => num(entry.amount))))) && (totals.chargeTotal?.path ?? missing(totals.path, 'BT-108'))
    );
  }),
  rule('BR-CO-13', 'The total without VAT (BT-109) must be the line sum (BT-106) less allowances (BT-107) plus charges (BT-108).', (i) => {
    const totals = i.totals;
    if (!totals?.taxExclusive) return false;
    const expected = round(numOr0(totals.lineNetTotal) - numOr0(totals.allowanceTotal) + numOr0(totals.chargeTotal));
    return differs(totals.taxExclusive, expected) && totals.taxExclusive.path;
  }),
  rule('BR-CO-14', 'The VAT total (BT-110) must equal the sum of the VAT amounts of the breakdown (BT-117).', (i) => {
    if (i.vatBreakdown.length === 0) return false;
    const expected = round(sum(i.vatBreakdown.map((entry) => num(entry.taxAmount))));
    return vatTotalsInInvoiceCurrency(i).find((total) => differs(total, expected))?.path;
  }),
  rule('BR-CO-15', 'The total with VAT (BT-112) must be the total without VAT (BT-109) plus the VAT total in the invoice currency (BT-110).', (i) => {
    const totals = i.totals;
    if (!totals) return false;
    const vat = vatTotalsInInvoiceCurrency(i);
    const location = totals.taxInclusive?.path ?? missing(totals.path, 'BT-112');
    const matches = vat.length === 1 && !differs(totals.taxInclusive, round(numOr0(totals.taxExclusive) + numOr0(vat[0])));
    // CII also accepts an invoice without VAT whose total with VAT is the total without it.
    const ciiNoVat = i.syntax === 'CII' && !differs(totals.taxInclusive, num(totals.taxExclusive) ?? -1n);
    return !matches && !ciiNoVat && location;
  }),
  rule('BR-CO-16', 'The amount due (BT-115) must be the total with VAT (BT-112) less the paid amount (BT-113) plus the rounding amount (BT-114).', (i) => {
    const totals = i.totals;
    if (!totals?.payable) return false;
    const expected = round(numOr0(totals.taxInclusive) - numOr0(totals.prepaid) + numOr0(totals.rounding));
    return differs(totals.payable, expected) && totals.payable.path;
  }),
  rule('BR-CO-18', 'An invoice must have at least one VAT breakdown (BG-23).', (i) => i.vatBreakdown.length === 0 && missing(i.path, 'BG-23')),
  eachRule(
    'BR-CO-17',
    'The VAT amount of a breakdown (BT-117) must be its taxable amount (BT-116) times its rate (BT-119), rounded, within 1.',
    (i) => i.vatBreakdown,
    (entry) => {
      const tax = num(entry.taxAmount) ?? 0n;
      const rate = num(entry.rate);
      if (rate === undefined || round(rate, 0) === 0n) return round(tax, 0) !== 0n;
      const expected = round(mul(abs(numOr0(entry.taxableAmount)), div(rate, HUNDRED)));
      return !(abs(tax) - ONE <= expected && abs(tax) + ONE >= expected) && (entry.taxAmount?.path ?? true);
    },
  ),
];
