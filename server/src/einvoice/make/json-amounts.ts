// What the JSON invoice's numbers come to, computed as the EN 16931 rules compute them (exact
// decimals, decimal.ts): each line's net (BT-131), the allowance/charge amounts, the VAT breakdown
// (BG-23) and the totals (BG-22). A stated amount the lines contradict is a problem naming it.

import { abs, type Dec, dec, div, fromInt, mul, round, show, sum } from '../model/decimal.ts';
import type { MakeAllowanceCharge, MakeInvoice } from './invoice-json.ts';

const HUNDRED = fromInt(100);
const CENT = dec('0.01')!;
const money = (value: Dec): string => show(round(value));
const d = (text: string): Dec => dec(text)!;
/** Categories whose rate is 0 (BR-E-05, BR-AE-05, BR-IC-05, BR-G-05, BR-O-05 and Z). */
const ZERO_RATED = new Set(['Z', 'E', 'AE', 'K', 'G', 'O']);

export interface ComputedCharge {
  source: MakeAllowanceCharge;
  amount: string;
  baseAmount?: string;
  vatRate?: string;
}

export interface ComputedLine {
  net: string;
  charges: ComputedCharge[];
}

export interface ComputedVat {
  category: string;
  rate: string;
  taxable: string;
  tax: string;
  exemptionReason?: string;
  exemptionReasonCode?: string;
  /** Where the entry came from: vat_breakdown[i] when stated, else computed. */
  field?: string;
}

export interface Computed {
  lines: ComputedLine[];
  charges: ComputedCharge[];
  vat: ComputedVat[];
  totals: {
    lineNet: string;
    allowances?: string;
    charges?: string;
    taxExclusive: string;
    tax: string;
    taxInclusive: string;
    prepaid?: string;
    rounding?: string;
    payable: string;
  };
}

/** The computed amounts, or the problems (sentences naming the field under `field`) that stop them. */
export function computeAmounts(invoice: MakeInvoice, field: string): { computed?: Computed; problems: string[] } {
  const problems: string[] = [];
  const add = (path: string, message: string) => problems.push(`${field}.${path} ${message}`);
  // Worded as the render routes' invoice check always was: "is 1.00, but <how> is 1374.04 (BR-CO-15)".
  const stated = (path: string, given: string | undefined, expected: Dec, how: string, rule?: string) => {
    if (given !== undefined && round(d(given)) !== round(expected)) add(path, `is ${given}, but ${how} is ${money(expected)}${rule ? ` (${rule})` : ''}`);
  };
  const lines = invoice.lines.map((line, index): ComputedLine => {
    const at = `lines[${index}]`;
    const gross = round(div(mul(d(line.quantity), d(line.unit_price)), d(line.base_quantity ?? '1')));
    const charges = (line.allowances_charges ?? []).map((charge, n) => chargeAmount(charge, gross, `${at}.allowances_charges[${n}]`, add));
    const net = round(gross + sum(charges.map((c) => (c.source.kind === 'charge' ? d(c.amount) : -d(c.amount)))));
    const plain = line.base_quantity === undefined && charges.length === 0;
    stated(`${at}.line_total`, line.line_total, net, plain ? 'quantity × unit_price' : 'quantity × unit_price / base_quantity less allowances plus charges');
    checkRate(line.vat_category, line.vat_rate, at, add);
    return { net: money(net), charges };
  });
  const documentCharges = (invoice.allowances_charges ?? []).map((charge, n) => {
    const at = `allowances_charges[${n}]`;
    if (charge.vat_category === undefined) add(`${at}.vat_category`, 'is required on a document allowance or charge (BR-32, BR-37)');
    const computed = chargeAmount(charge, undefined, at, add);
    const vatRate = charge.vat_rate ?? (ZERO_RATED.has(charge.vat_category ?? '') ? '0' : undefined);
    if (charge.vat_category !== undefined && vatRate === undefined) add(`${at}.vat_rate`, `is required for VAT category ${charge.vat_category}`);
    else if (charge.vat_category !== undefined && vatRate !== undefined) checkRate(charge.vat_category, vatRate, at, add);
    return { ...computed, vatRate };
  });
  // The totals are computed from the computed lines, so a wrong line total does not hide a wrong grand total.
  const vat = breakdown(invoice, lines, documentCharges, add);
  const signed = (kind: 'allowance' | 'charge') => sum(documentCharges.filter((c) => c.source.kind === kind).map((c) => d(c.amount)));
  const lineNet = sum(lines.map((line) => d(line.net)));
  const [allowances, charges] = [signed('allowance'), signed('charge')];
  const taxExclusive = lineNet - allowances + charges;
  const tax = sum(vat.map((entry) => d(entry.tax)));
  const taxInclusive = taxExclusive + tax;
  const given = invoice.totals ?? {};
  const prepaid = d(given.prepaid ?? '0');
  const rounding = d(given.rounding ?? '0');
  const payable = taxInclusive - prepaid + rounding;
  stated('totals.line_total', given.line_total, lineNet, 'the sum of the line totals', 'BR-CO-10');
  stated('totals.allowance_total', given.allowance_total, allowances, 'the sum of the document allowances', 'BR-CO-11');
  stated('totals.charge_total', given.charge_total, charges, 'the sum of the document charges', 'BR-CO-12');
  stated('totals.tax_basis_total', given.tax_basis_total, taxExclusive, 'line_total - allowance_total + charge_total', 'BR-CO-13');
  stated('totals.tax_total', given.tax_total, tax, 'the sum of vat_breakdown tax_amount', 'BR-CO-14');
  stated('totals.grand_total', given.grand_total, taxInclusive, 'tax_basis_total + tax_total', 'BR-CO-15');
  stated('totals.due_payable', given.due_payable, payable, 'grand_total - prepaid + rounding', 'BR-CO-16');
  if (problems.length > 0) return { problems };
  const hasKind = (kind: 'allowance' | 'charge') => documentCharges.some((c) => c.source.kind === kind);
  return {
    problems,
    computed: {
      lines,
      charges: documentCharges,
      vat,
      totals: {
        lineNet: money(lineNet),
        allowances: hasKind('allowance') || given.allowance_total !== undefined ? money(allowances) : undefined,
        charges: hasKind('charge') || given.charge_total !== undefined ? money(charges) : undefined,
        taxExclusive: money(taxExclusive),
        tax: money(tax),
        taxInclusive: money(taxInclusive),
        prepaid: prepaid !== 0n ? money(prepaid) : undefined,
        rounding: rounding !== 0n ? money(rounding) : undefined,
        payable: money(payable),
      },
    },
  };
}

/** An allowance or charge's amount: as given, or base × percentage (a line's base defaults to its gross amount). */
function chargeAmount(charge: MakeAllowanceCharge, lineGross: Dec | undefined, at: string, add: (path: string, message: string) => void): ComputedCharge {
  const base = charge.base_amount !== undefined ? d(charge.base_amount) : charge.percentage !== undefined ? lineGross : undefined;
  const fromPercentage = base !== undefined && charge.percentage !== undefined ? round(mul(base, div(d(charge.percentage), HUNDRED))) : undefined;
  if (charge.amount === undefined && fromPercentage === undefined) {
    add(`${at}.amount`, 'is required (or percentage with base_amount)');
    return { source: charge, amount: '0.00' };
  }
  if (charge.amount !== undefined && fromPercentage !== undefined && abs(round(d(charge.amount)) - fromPercentage) > 0n)
    add(`${at}.amount`, `is ${charge.amount}, but base_amount × percentage is ${money(fromPercentage)}`);
  return {
    source: charge,
    amount: money(charge.amount !== undefined ? d(charge.amount) : fromPercentage!),
    baseAmount: base === undefined ? undefined : money(base),
  };
}

function checkRate(category: string, rate: string, at: string, add: (path: string, message: string) => void): void {
  const value = d(rate);
  if (category === 'S' && value <= 0n) add(`${at}.vat_rate`, 'must be above 0 for VAT category S (BR-S-05)');
  if (ZERO_RATED.has(category) && value !== 0n) add(`${at}.vat_rate`, `must be 0 for VAT category ${category}`);
}

const keyOf = (category: string, rate: string) => `${category} ${d(rate)}`;

/** BG-23: one entry per category and rate the lines and document allowances/charges use, checked against stated entries. */
function breakdown(invoice: MakeInvoice, lines: ComputedLine[], charges: ComputedCharge[], add: (path: string, message: string) => void): ComputedVat[] {
  const basis = new Map<string, { category: string; rate: string; amount: Dec }>();
  const use = (category: string, rate: string, amount: Dec) => {
    const key = keyOf(category, rate);
    const entry = basis.get(key) ?? { category, rate, amount: 0n };
    entry.amount += amount;
    basis.set(key, entry);
  };
  invoice.lines.forEach((line, index) => {
    use(line.vat_category, line.vat_rate, d(lines[index]!.net));
  });
  for (const charge of charges) {
    if (charge.source.vat_category === undefined || charge.vatRate === undefined) continue;
    use(charge.source.vat_category, charge.vatRate, charge.source.kind === 'charge' ? d(charge.amount) : -d(charge.amount));
  }
  const statedEntries = invoice.vat_breakdown ?? [];
  const seen = new Set<string>();
  const result: ComputedVat[] = [];
  statedEntries.forEach((entry, index) => {
    const at = `vat_breakdown[${index}]`;
    const key = keyOf(entry.vat_category, entry.vat_rate);
    if (seen.has(key)) add(at, `repeats VAT category ${entry.vat_category} at ${entry.vat_rate}% (one entry per category and rate)`);
    seen.add(key);
    const computed = basis.get(key);
    if (!computed) {
      add(at, `is for VAT category ${entry.vat_category} at ${entry.vat_rate}%, which no line or document allowance/charge has`);
      return;
    }
    const taxable = round(computed.amount);
    if (entry.taxable_amount !== undefined && round(d(entry.taxable_amount)) !== taxable)
      add(
        `${at}.taxable_amount`,
        `is ${entry.taxable_amount}, but the lines and allowances/charges at ${entry.vat_category} ${entry.vat_rate}% come to ${money(taxable)}`,
      );
    const tax = round(mul(taxable, div(d(entry.vat_rate), HUNDRED)));
    // BR-CO-17 allows a cent either way, so a stated tax within it is kept as stated.
    if (entry.tax_amount !== undefined && abs(round(d(entry.tax_amount)) - tax) > CENT)
      add(`${at}.tax_amount`, `is ${entry.tax_amount}, but ${money(taxable)} at ${entry.vat_rate}% is ${money(tax)} (BR-CO-17)`);
    result.push({
      category: entry.vat_category,
      rate: entry.vat_rate,
      taxable: money(taxable),
      tax: entry.tax_amount !== undefined ? money(d(entry.tax_amount)) : money(tax),
      exemptionReason: entry.exemption_reason,
      exemptionReasonCode: entry.exemption_reason_code,
      field: at,
    });
  });
  for (const [key, entry] of basis) {
    if (seen.has(key)) continue;
    const taxable = round(entry.amount);
    result.push({ category: entry.category, rate: entry.rate, taxable: money(taxable), tax: money(round(mul(taxable, div(d(entry.rate), HUNDRED)))) });
  }
  return result;
}
