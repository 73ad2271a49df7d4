// Data that is not shaped as an invoice is refused in sentences a person can act on: missing
// fields gathered per object, wrong ones saying what they must be; never zod's own wording
// ("Invalid input: expected string, received undefined"), and never "does not add up", which is
// kept for stated totals that disagree with the lines.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invoiceXml } from '../../../server/src/einvoice/e-invoice.ts';
import { MakeInputError } from '../../../server/src/einvoice/make/make-einvoice.ts';

function refusal(data: unknown): MakeInputError {
  try {
    invoiceXml({ profile: 'EN 16931', from_data: true }, data, 'options.e_invoice');
  } catch (error) {
    if (error instanceof MakeInputError) return error;
    throw error;
  }
  assert.fail('the data was taken as an invoice');
}

test('a template’s ordinary sample data is told which invoice fields it lacks', () => {
  const error = refusal({ number: 'F-1', customer: 'Ada' });
  assert.equal(error.kind, 'shape');
  assert.deepEqual(error.problems, [
    // vat_breakdown and totals are computed when left out (docs/api.md#making-an-e-invoice).
    'data lacks issue_date, currency, seller, buyer and lines',
    'data has a field an invoice does not have: customer',
  ]);
  assert.doesNotMatch(error.message, /Invalid input|expected string|received undefined/);
});

test('wrong values say what they must be, nested missing fields name their object', () => {
  const error = refusal({ number: 5, issue_date: '1.1.2026', currency: 'EUR', seller: { name: '', address: {} }, lines: [] });
  assert.deepEqual(error.problems, [
    'data.seller.address lacks country_code',
    'data lacks buyer',
    'data.number must be a string',
    'data.issue_date must be a date as YYYY-MM-DD',
    'data.seller.name must not be empty',
    'data.lines needs at least 1 entry',
  ]);
});
