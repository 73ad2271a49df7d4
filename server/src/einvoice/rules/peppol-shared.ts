// The Peppol BIS Billing 3.0 rules (PEPPOL-EN16931-R*, OpenPEPPOL 3.0.19) that XRechnung takes
// over as well, in our words over the model. Which of them each rule set uses is in rule-sets.ts.

import { abs, type Dec, div, fromInt, mul } from '../model/decimal.ts';
import type { Invoice } from '../model/invoice-model.ts';
import { code, lineAllowanceCharges, missing, num, numOr0 } from './facts.ts';
import { eachRule, type Rule, rule } from './rule.ts';

const HUNDRED = fromInt(100);
const SLACK = 2n * 10n ** 10n; // 0.02 at the model's 10^12 scale
const within = (a: Dec, b: Dec) => abs(a - b) <= SLACK;
const allAllowanceCharges = (i: Invoice) => [...i.allowancesCharges, ...lineAllowanceCharges(i)];

const SHARED: Rule[] = [
  rule('PEPPOL-EN16931-R001', 'A business process (BT-23) must be given.', (i) => !i.businessProcess && missing(i.path, 'BT-23')),
  rule(
    'PEPPOL-EN16931-R005',
    'The VAT accounting currency (BT-6) must differ from the invoice currency (BT-5).',
    (i) => !!i.vatAccountingCurrency && code(i.vatAccountingCurrency) === code(i.currency) && i.vatAccountingCurrency.path,
  ),
  rule(
    'PEPPOL-EN16931-R010',
    "The buyer's electronic address (BT-49) must be given.",
    (i) => !!i.buyer && !i.buyer.electronicAddress && missing(i.buyer.path, 'BT-49'),
  ),
  rule(
    'PEPPOL-EN16931-R020',
    "The seller's electronic address (BT-34) must be given.",
    (i) => !!i.seller && !i.seller.electronicAddress && missing(i.seller.path, 'BT-34'),
  ),
  eachRule('PEPPOL-EN16931-R040', 'An allowance or charge amount must be its base amount times its percentage.', allAllowanceCharges, (entry) => {
    if (!entry.percentage || !entry.baseAmount) return false;
    return !within(numOr0(entry.amount), div(mul(numOr0(entry.baseAmount), numOr0(entry.percentage)), HUNDRED)) && (entry.amount?.path ?? true);
  }),
  eachRule(
    'PEPPOL-EN16931-R041',
    'An allowance or charge with a percentage must give its base amount.',
    allAllowanceCharges,
    (entry) => !!entry.percentage && !entry.baseAmount,
  ),
  eachRule(
    'PEPPOL-EN16931-R042',
    'An allowance or charge with a base amount must give its percentage.',
    allAllowanceCharges,
    (entry) => !entry.percentage && !!entry.baseAmount,
  ),
  eachRule(
    'PEPPOL-EN16931-R046',
    'The item net price (BT-146) must be the gross price (BT-148) less the price discount (BT-147).',
    (i) => i.lines,
    (line) => {
      if (!line.grossPrice) return false;
      return num(line.netPrice) !== numOr0(line.grossPrice) - numOr0(line.priceDiscount) && (line.netPrice?.path ?? true);
    },
  ),
  {
    id: 'PEPPOL-EN16931-R054',
    flag: 'fatal',
    text: 'A VAT total without breakdown, in the accounting currency (BT-111), must be given exactly when a VAT accounting currency (BT-6) is.',
    *check({ invoice, root }) {
      // UBL counts the TaxTotals without subtotals; CII the VAT totals in another currency than the invoice's.
      const others =
        invoice.syntax === 'UBL' && root
          ? root
              .all('cac:TaxTotal')
              .filter((total) => !total.one('cac:TaxSubtotal'))
              .map((total) => total.path)
          : (invoice.totals?.vatTotals.filter((total) => total.currency !== code(invoice.currency)).map((total) => total.path) ?? []);
      if (others.length !== (invoice.vatAccountingCurrency ? 1 : 0)) yield others[0] ?? missing(invoice.path, 'BT-111');
    },
  },
  rule('PEPPOL-EN16931-R055', 'The VAT totals in the invoice and the accounting currency must have the same sign.', (i) => {
    const accounting = code(i.vatAccountingCurrency);
    if (!accounting) return false;
    const sign = (currency: string | undefined) => i.totals?.vatTotals.filter((total) => total.currency === currency).map((total) => (num(total) ?? 0n) < 0n);
    const [invoiceSide, accountingSide] = [sign(code(i.currency))?.[0], sign(accounting)?.[0]];
    return invoiceSide !== undefined && accountingSide !== undefined && invoiceSide !== accountingSide && (i.vatAccountingCurrency?.path ?? i.path);
  }),
  eachRule(
    'PEPPOL-EN16931-R061',
    'A direct debit (49, 59) must give the mandate reference (BT-89).',
    (i) => i.paymentMeans.filter((means) => ['49', '59'].includes(code(means.typeCode) ?? '')),
    (means) => !means.directDebit?.mandateReference,
  ),
  eachRule(
    'PEPPOL-EN16931-R110',
    "A line's period must not start before the invoice period (BT-134 >= BT-73).",
    (i) => i.lines,
    (line, i) => {
      const start = i.invoicePeriod?.start?.iso;
      return !!start && !!line.period?.start?.iso && line.period.start.iso < start && line.period.start.path;
    },
  ),
  eachRule(
    'PEPPOL-EN16931-R111',
    "A line's period must not end after the invoice period (BT-135 <= BT-74).",
    (i) => i.lines,
    (line, i) => {
      const end = i.invoicePeriod?.end?.iso;
      return !!end && !!line.period?.end?.iso && line.period.end.iso > end && line.period.end.path;
    },
  ),
  eachRule(
    'PEPPOL-EN16931-R120',
    "A line's net amount (BT-131) must be quantity times net price per base quantity, plus charges, less allowances.",
    (i) => i.lines,
    (line) => {
      const base = num(line.baseQuantity) ?? fromInt(1);
      if (base === 0n) return false;
      const charges = line.allowancesCharges.filter((entry) => entry.isCharge).reduce((total, entry) => total + numOr0(entry.amount), 0n);
      const allowances = line.allowancesCharges.filter((entry) => !entry.isCharge).reduce((total, entry) => total + numOr0(entry.amount), 0n);
      const expected = mul(numOr0(line.quantity), div(numOr0(line.netPrice), base)) + charges - allowances;
      return !within(numOr0(line.netAmount), expected) && (line.netAmount?.path ?? true);
    },
  ),
  eachRule(
    'PEPPOL-EN16931-R121',
    'A price base quantity (BT-149) must be above 0.',
    (i) => i.lines,
    (line) => {
      const quantities = [line.baseQuantity, line.grossPriceBaseQuantity].filter((q) => q !== undefined);
      return quantities.find((q) => (num(q) ?? 0n) <= 0n)?.path;
    },
  ),
  eachRule(
    'PEPPOL-EN16931-R130',
    'The unit of the price base quantity (BT-150) must be the unit of the invoiced quantity (BT-130).',
    (i) => i.lines,
    (line) => {
      const quantities = [line.baseQuantity, line.grossPriceBaseQuantity].filter((q) => q?.unitCode !== undefined);
      return quantities.find((q) => q!.unitCode !== line.quantity?.unitCode)?.path;
    },
  ),
];

export const PEPPOL_SHARED_RULES: Record<string, Rule> = Object.fromEntries(SHARED.map((entry) => [entry.id, entry]));
