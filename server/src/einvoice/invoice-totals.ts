// Cross-checks an invoice's stated amounts against its lines (EN 16931's BR-CO calculation rules)
// and a few business rules a program can decide without the Schematron (docs/api.md#e-invoices
// lists which). Each mismatch is one sentence naming the field; nothing is corrected silently.

import type { EInvoiceProfile } from './profiles.ts';
import type { Invoice } from './invoice-schema.ts';

/** Amounts are compared in cents: the XML carries two decimals. */
export const cents = (value: number) => Math.round(value * 100);
const show = (value: number) => (cents(value) / 100).toFixed(2);

/** Categories whose rate is 0 and which need an exemption reason (BR-E-10, BR-AE-10, BR-IC-10, BR-G-10, BR-O-10). */
const EXEMPT = new Set(['E', 'AE', 'K', 'G', 'O']);

/** Every mismatch and missing field of the invoice, as sentences naming the field under `field`. */
export function invoiceProblems(invoice: Invoice, profile: EInvoiceProfile, field: string): string[] {
  const problems: string[] = [];
  const add = (path: string, message: string) => problems.push(`${field}.${path} ${message}`);
  const keyOf = (category: string, rate: number) => `${category} ${cents(rate)}`;
  const basis = new Map<string, number>();
  invoice.lines.forEach((line, index) => {
    const expected = cents(line.quantity * line.unit_price);
    if (cents(line.line_total) !== expected)
      add(`lines[${index}].line_total`, `is ${show(line.line_total)}, but quantity × unit_price is ${show(expected / 100)}`);
    checkRate(line.vat_category, line.vat_rate, `lines[${index}]`, add);
    const key = keyOf(line.vat_category, line.vat_rate);
    basis.set(key, (basis.get(key) ?? 0) + cents(line.line_total));
  });
  const stated = new Set<string>();
  let taxSum = 0;
  invoice.vat_breakdown.forEach((entry, index) => {
    const key = keyOf(entry.vat_category, entry.vat_rate);
    const at = `vat_breakdown[${index}]`;
    if (stated.has(key)) add(at, `repeats VAT category ${entry.vat_category} at ${entry.vat_rate}% (one entry per category and rate)`);
    stated.add(key);
    const lines = basis.get(key);
    if (lines === undefined) add(at, `is for VAT category ${entry.vat_category} at ${entry.vat_rate}%, which no line has`);
    else if (cents(entry.taxable_amount) !== lines)
      add(`${at}.taxable_amount`, `is ${show(entry.taxable_amount)}, but the lines at ${entry.vat_category} ${entry.vat_rate}% sum to ${show(lines / 100)}`);
    // BR-CO-17: the tax is the basis times the rate, rounded to cents (a cent either way is tolerated, as the Schematron does).
    const tax = cents((entry.taxable_amount * entry.vat_rate) / 100);
    if (Math.abs(cents(entry.tax_amount) - tax) > 1)
      add(`${at}.tax_amount`, `is ${show(entry.tax_amount)}, but ${show(entry.taxable_amount)} at ${entry.vat_rate}% is ${show(tax / 100)} (BR-CO-17)`);
    if (EXEMPT.has(entry.vat_category) && entry.exemption_reason === undefined)
      add(`${at}.exemption_reason`, `is required for VAT category ${entry.vat_category}`);
    checkRate(entry.vat_category, entry.vat_rate, at, add);
    taxSum += cents(entry.tax_amount);
  });
  for (const key of basis.keys()) {
    if (!stated.has(key)) {
      const [category, rate] = key.split(' ');
      add('vat_breakdown', `has no entry for VAT category ${category} at ${Number(rate) / 100}%, which lines use (BR-CO-18)`);
    }
  }
  const { totals } = invoice;
  const lineSum = [...basis.values()].reduce((sum, value) => sum + value, 0);
  const expect = (name: string, actual: number, expected: number, rule: string, how: string) => {
    if (cents(actual) !== expected) add(`totals.${name}`, `is ${show(actual)}, but ${how} is ${show(expected / 100)} (${rule})`);
  };
  expect('line_total', totals.line_total, lineSum, 'BR-CO-10', 'the sum of the line totals');
  expect('tax_basis_total', totals.tax_basis_total, cents(totals.line_total), 'BR-CO-13', 'line_total (no document-level allowances or charges)');
  expect('tax_total', totals.tax_total, taxSum, 'BR-CO-14', 'the sum of vat_breakdown tax_amount');
  expect('grand_total', totals.grand_total, cents(totals.tax_basis_total) + cents(totals.tax_total), 'BR-CO-15', 'tax_basis_total + tax_total');
  expect('due_payable', totals.due_payable, cents(totals.grand_total) - cents(totals.prepaid), 'BR-CO-16', 'grand_total - prepaid');
  if (cents(totals.due_payable) > 0 && invoice.payment.due_date === undefined && invoice.payment.terms === undefined)
    add('payment', 'needs due_date or terms when an amount is due (BR-CO-25)');
  if (invoice.vat_breakdown.some((entry) => entry.vat_category === 'S') && !invoice.seller.vat_id && !invoice.seller.tax_number)
    add('seller', 'needs vat_id or tax_number when standard-rated VAT is charged (BR-S-02)');
  if (profile === 'XRECHNUNG') xrechnungProblems(invoice, add);
  return problems;
}

function checkRate(category: string, rate: number, at: string, add: (path: string, message: string) => void): void {
  if (category === 'S' && rate <= 0) add(`${at}.vat_rate`, 'must be above 0 for VAT category S (BR-S-05)');
  if (category !== 'S' && category !== 'L' && category !== 'M' && rate !== 0)
    add(`${at}.vat_rate`, `must be 0 for VAT category ${category} (BR-${category}-05)`);
}

/** XRechnung 3.0's own rules (BR-DE) for the fields this JSON has. */
function xrechnungProblems(invoice: Invoice, add: (path: string, message: string) => void): void {
  if (!invoice.buyer_reference) add('buyer_reference', 'is required by XRechnung (the Leitweg-ID, BR-DE-15)');
  const contact = invoice.seller.contact;
  if (!contact?.name) add('seller.contact.name', 'is required by XRechnung (BR-DE-5)');
  if (!contact?.phone) add('seller.contact.phone', 'is required by XRechnung (BR-DE-6)');
  if (!contact?.email) add('seller.contact.email', 'is required by XRechnung (BR-DE-7)');
  if (!invoice.seller.address.city) add('seller.address.city', 'is required by XRechnung (BR-DE-3)');
  if (!invoice.seller.address.postcode) add('seller.address.postcode', 'is required by XRechnung (BR-DE-4)');
  if (!invoice.buyer.address.city) add('buyer.address.city', 'is required by XRechnung (BR-DE-8)');
  if (!invoice.buyer.address.postcode) add('buyer.address.postcode', 'is required by XRechnung (BR-DE-9)');
  if (!invoice.seller.email) add('seller.email', 'is required by XRechnung (BT-34, PEPPOL-EN16931-R020)');
  if (!invoice.buyer.email) add('buyer.email', 'is required by XRechnung (BT-49, PEPPOL-EN16931-R010)');
}
