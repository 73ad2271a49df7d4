// JSON invoice amounts (einvoice/make/json-amounts.ts): what is left out is computed as the EN 16931
// rules compute it, in exact decimals; what is stated and contradicts the lines is a problem that
// names its field. No Chromium, no XML: the sums alone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeAmounts } from '../../../server/src/einvoice/make/json-amounts.ts';
import { makeInvoiceSchema } from '../../../server/src/einvoice/make/invoice-json.ts';

const party = { name: 'P', vat_id: 'DE123456789', address: { country_code: 'DE' } };
const base = { number: '1', issue_date: '2026-03-01', currency: 'EUR', seller: party, buyer: party };
const invoiceOf = (fields: Record<string, unknown>) => makeInvoiceSchema.parse({ ...base, ...fields });
const amounts = (fields: Record<string, unknown>) => computeAmounts(invoiceOf(fields), 'invoice');

test('line nets, allowances by percentage, base quantities and document charges add up per rate, exactly', () => {
  const { computed, problems } = amounts({
    lines: [
      // 1.005 is 1.00499999… as a float: exact decimals round it half up to 1.01.
      { name: 'a', quantity: 1, unit_price: '1.005', vat_rate: 19 },
      // 250 units at 12.00 per 100: 30.00, less 10 % (3.00), plus a 2.50 charge: 29.50.
      {
        name: 'b',
        quantity: 250,
        unit_price: 12,
        base_quantity: 100,
        vat_rate: 19,
        allowances_charges: [
          { kind: 'allowance', percentage: 10, reason: 'Discount' },
          { kind: 'charge', amount: '2.50', reason: 'Packing' },
        ],
      },
      { name: 'c', quantity: 3, unit_price: 0.1, vat_category: 'S', vat_rate: 7 },
    ],
    allowances_charges: [
      { kind: 'allowance', percentage: 50, base_amount: '0.30', reason: 'Half off', vat_category: 'S', vat_rate: 7 },
      { kind: 'charge', amount: 5, reason: 'Freight', vat_category: 'S', vat_rate: 19 },
    ],
  });
  assert.deepEqual(problems, []);
  assert.deepEqual(
    computed!.lines.map((line) => line.net),
    ['1.01', '29.50', '0.30'],
  );
  assert.deepEqual(computed!.lines[1]!.charges[0]!.baseAmount, '30.00');
  assert.deepEqual(
    computed!.vat.map((entry) => [entry.category, entry.rate, entry.taxable, entry.tax]),
    [
      ['S', '19', '35.51', '6.75'],
      ['S', '7', '0.15', '0.01'],
    ],
  );
  assert.deepEqual(computed!.totals, {
    lineNet: '30.81',
    allowances: '0.15',
    charges: '5.00',
    taxExclusive: '35.66',
    tax: '6.76',
    taxInclusive: '42.42',
    prepaid: undefined,
    rounding: undefined,
    payable: '42.42',
  });
});

test('a stated breakdown entry may give only its exemption reason; a stated tax within the cent BR-CO-17 allows is kept', () => {
  const { computed } = amounts({
    lines: [
      { name: 'a', quantity: 1, unit_price: 100, vat_category: 'AE', vat_rate: 0 },
      { name: 'b', quantity: 1, unit_price: '10.05', vat_rate: 19 },
    ],
    vat_breakdown: [
      { vat_category: 'AE', vat_rate: 0, exemption_reason_code: 'VATEX-EU-AE' },
      { vat_category: 'S', vat_rate: 19, tax_amount: '1.90' },
    ],
  });
  assert.deepEqual(
    computed!.vat.map((entry) => [entry.category, entry.taxable, entry.tax, entry.exemptionReasonCode]),
    [
      ['AE', '100.00', '0.00', 'VATEX-EU-AE'],
      ['S', '10.05', '1.90', undefined],
    ],
  );
});

test('stated amounts the lines contradict, and missing or wrong VAT facts, are problems naming the field', () => {
  const { computed, problems } = amounts({
    lines: [
      { name: 'a', quantity: 2, unit_price: 10, line_total: 21, vat_rate: 19 },
      { name: 'b', quantity: 1, unit_price: 10, vat_category: 'S', vat_rate: 0 },
      { name: 'c', quantity: 1, unit_price: 10, vat_category: 'AE', vat_rate: 19 },
    ],
    allowances_charges: [
      { kind: 'allowance', percentage: 5, reason: 'x' },
      { kind: 'charge', reason: 'y', vat_category: 'S', vat_rate: 19 },
    ],
    vat_breakdown: [{ vat_category: 'Z', vat_rate: 0 }],
  });
  assert.equal(computed, undefined);
  assert.deepEqual(problems, [
    'invoice.lines[0].line_total is 21, but quantity × unit_price is 20.00',
    'invoice.lines[1].vat_rate must be above 0 for VAT category S (BR-S-05)',
    'invoice.lines[2].vat_rate must be 0 for VAT category AE',
    'invoice.allowances_charges[0].vat_category is required on a document allowance or charge (BR-32, BR-37)',
    'invoice.allowances_charges[0].amount is required (or percentage with base_amount)',
    'invoice.allowances_charges[1].amount is required (or percentage with base_amount)',
    'invoice.vat_breakdown[0] is for VAT category Z at 0%, which no line or document allowance/charge has',
  ]);
  const totals = amounts({ lines: [{ name: 'a', quantity: 1, unit_price: 10, vat_rate: 19 }], totals: { tax_total: '1.90', due_payable: '11.90' } });
  assert.deepEqual(totals.problems, []);
  const wrong = amounts({ lines: [{ name: 'a', quantity: 1, unit_price: 10, vat_rate: 19 }], totals: { tax_total: '1.00', due_payable: '11.90' } });
  assert.deepEqual(wrong.problems, ['invoice.totals.tax_total is 1.00, but the sum of vat_breakdown tax_amount is 1.90 (BR-CO-14)']);
});

test('amounts are numbers or decimal strings, at most two decimals; floats are never summed', () => {
  assert.equal(makeInvoiceSchema.safeParse({ ...base, lines: [{ name: 'a', quantity: 1, unit_price: 1, line_total: '1.001', vat_rate: 19 }] }).success, false);
  assert.equal(makeInvoiceSchema.safeParse({ ...base, lines: [{ name: 'a', quantity: 1, unit_price: '1e3', vat_rate: 19 }] }).success, false);
  const parsed = invoiceOf({ lines: [{ name: 'a', quantity: 0.1, unit_price: 0.2, vat_rate: 19 }] });
  assert.deepEqual([parsed.lines[0]!.quantity, parsed.lines[0]!.unit_price], ['0.1', '0.2']);
});
