// BR-DEC-*: the amounts EN 16931 keeps to 2 decimals, counted on the text as written.

import { fractionDigits } from '../model/decimal.ts';
import type { Amount, Invoice } from '../model/invoice-model.ts';
import { allowances, charges, code, lineAllowanceCharges } from './facts.ts';
import type { Rule } from './rule.ts';

function decimalsRule(id: string, term: string, amounts: (invoice: Invoice) => (Amount | undefined)[]): Rule {
  return {
    id,
    flag: 'fatal',
    text: `${term} must have at most 2 decimals.`,
    *check({ invoice }) {
      for (const amount of amounts(invoice)) if (amount && fractionDigits(amount.value) > 2) yield amount.path;
    },
  };
}

const totals = (i: Invoice) => i.totals;
const lineAcs = (i: Invoice, charge: boolean) => lineAllowanceCharges(i).filter((entry) => entry.isCharge === charge);

export const DECIMAL_RULES: readonly Rule[] = [
  decimalsRule('BR-DEC-01', 'A document allowance amount (BT-92)', (i) => allowances(i).map((entry) => entry.amount)),
  decimalsRule('BR-DEC-02', 'A document allowance base amount (BT-93)', (i) => allowances(i).map((entry) => entry.baseAmount)),
  decimalsRule('BR-DEC-05', 'A document charge amount (BT-99)', (i) => charges(i).map((entry) => entry.amount)),
  decimalsRule('BR-DEC-06', 'A document charge base amount (BT-100)', (i) => charges(i).map((entry) => entry.baseAmount)),
  decimalsRule('BR-DEC-09', 'The sum of line net amounts (BT-106)', (i) => [totals(i)?.lineNetTotal]),
  decimalsRule('BR-DEC-10', 'The sum of allowances (BT-107)', (i) => [totals(i)?.allowanceTotal]),
  decimalsRule('BR-DEC-11', 'The sum of charges (BT-108)', (i) => [totals(i)?.chargeTotal]),
  decimalsRule('BR-DEC-12', 'The total without VAT (BT-109)', (i) => [totals(i)?.taxExclusive]),
  decimalsRule('BR-DEC-13', 'The VAT total (BT-110)', (i) => totals(i)?.vatTotals.filter((total) => total.currency === code(i.currency)) ?? []),
  decimalsRule('BR-DEC-14', 'The total with VAT (BT-112)', (i) => [totals(i)?.taxInclusive]),
  decimalsRule('BR-DEC-15', 'The VAT total in accounting currency (BT-111)', (i) =>
    i.vatAccountingCurrency ? (totals(i)?.vatTotals.filter((total) => total.currency === code(i.vatAccountingCurrency)) ?? []) : [],
  ),
  decimalsRule('BR-DEC-16', 'The paid amount (BT-113)', (i) => [totals(i)?.prepaid]),
  decimalsRule('BR-DEC-17', 'The rounding amount (BT-114)', (i) => [totals(i)?.rounding]),
  decimalsRule('BR-DEC-18', 'The amount due (BT-115)', (i) => [totals(i)?.payable]),
  decimalsRule('BR-DEC-19', 'A VAT category taxable amount (BT-116)', (i) => i.vatBreakdown.map((entry) => entry.taxableAmount)),
  decimalsRule('BR-DEC-20', 'A VAT category tax amount (BT-117)', (i) => i.vatBreakdown.map((entry) => entry.taxAmount)),
  decimalsRule('BR-DEC-23', 'A line net amount (BT-131)', (i) => i.lines.map((line) => line.netAmount)),
  decimalsRule('BR-DEC-24', 'A line allowance amount (BT-136)', (i) => lineAcs(i, false).map((entry) => entry.amount)),
  decimalsRule('BR-DEC-25', 'A line allowance base amount (BT-137)', (i) => lineAcs(i, false).map((entry) => entry.baseAmount)),
  decimalsRule('BR-DEC-27', 'A line charge amount (BT-141)', (i) => lineAcs(i, true).map((entry) => entry.amount)),
  decimalsRule('BR-DEC-28', 'A line charge base amount (BT-142)', (i) => lineAcs(i, true).map((entry) => entry.baseAmount)),
];
