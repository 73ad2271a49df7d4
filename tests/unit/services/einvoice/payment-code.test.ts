// The e-invoice view's GiroCode: drawn for a SEPA credit transfer in euros with what the code
// carries, a note instead when a bank would refuse it, nothing for other means of payment.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { einvoicePaymentCode } from '../../../../server/src/services/einvoice/payment-code.ts';

const invoice = (change: Record<string, unknown> = {}) => ({
  currency: 'EUR',
  seller: { name: 'Muster Software GmbH' },
  totals: { payable: { value: '1109.7', currency: 'EUR' } },
  payment_means: [
    {
      type_code: '58',
      remittance_information: 'RE-2026-0042',
      credit_transfers: [{ account_id: 'DE02120300000000202051', service_provider_id: 'BYLADEM1001' }],
    },
  ],
  ...change,
});

test('a SEPA credit transfer in euros: the code to the seller, amount due with two decimals, the remittance as text', () => {
  const code = einvoicePaymentCode(invoice());
  assert.match(
    code?.svg ?? '',
    /^<svg width="32mm" height="32mm" role="img" aria-label="EPC QR code \(GiroCode\): pay 1109.7 EUR to Muster Software GmbH, DE02 1203/,
  );
  assert.deepEqual(
    { ...code, svg: undefined },
    { svg: undefined, name: 'Muster Software GmbH', iban: 'DE02120300000000202051', amount: '1109.70', reference: 'RE-2026-0042' },
  );
});

test('an amount due written without its currency is in the invoice currency', () => {
  assert.equal(einvoicePaymentCode(invoice({ totals: { payable: '1736.21' } }))?.amount, '1736.21');
});

test('the payee (BG-10) is paid rather than the seller', () => {
  assert.equal(einvoicePaymentCode(invoice({ payee: { name: 'Factoring AG' } }))?.name, 'Factoring AG');
});

test('not in euros, nothing due, a wrong IBAN: a note says why there is no code', () => {
  assert.deepEqual(einvoicePaymentCode(invoice({ totals: { payable: { value: '10', currency: 'CHF' } } })), {
    note: 'No EPC QR code: it pays euros only, and this invoice is due in CHF.',
  });
  assert.deepEqual(einvoicePaymentCode(invoice({ totals: { payable: '0.00' } })), { note: 'No EPC QR code: nothing is due for payment (BT-115).' });
  const wrong = invoice({ payment_means: [{ type_code: '58', credit_transfers: [{ account_id: 'DE03120300000000202051' }] }] });
  assert.match(einvoicePaymentCode(wrong)?.note ?? '', /^No EPC QR code: iban: the IBAN's check digits \(03\) do not match/);
});

test('direct debit, a card, or a non-SEPA transfer to a local account number: no code and no note', () => {
  assert.equal(einvoicePaymentCode(invoice({ payment_means: [{ type_code: '59', credit_transfers: [] }] })), undefined);
  assert.equal(einvoicePaymentCode(invoice({ payment_means: [{ type_code: '30', credit_transfers: [{ account_id: '1234567' }] }] })), undefined);
  assert.equal(einvoicePaymentCode(invoice({ payment_means: undefined })), undefined);
});
