// The EPC QR code's payload against EPC069-12's own sample and layout, and every refusal naming
// its attribute; the drawn code is read back by zbarimg, byte for byte.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { epcPayload, epcQrSvg } from '../../../server/src/payments/epc-qr.ts';
import { PaymentDataError } from '../../../server/src/payments/errors.ts';
import { decodeQrCodes, rasteriseSvg } from '../../helpers/qr-decode.ts';

/** EPC069-12's sample (Red Cross of Belgium), line for line as the guidelines print it. */
const EPC_SAMPLE = [
  'BCD',
  '001',
  '1',
  'SCT',
  'BPOTBEB1',
  'Red Cross of Belgium',
  'BE72000000001616',
  'EUR1',
  'CHAR',
  '',
  'Urgency fund',
  'Sample EPC QR code',
].join('\n');

const GIRO = { name: 'Müller & Söhne GmbH', iban: 'DE89 3704 0044 0532 0130 00', amount: '1109.70' };

describe('EPC QR payload', () => {
  test('the guidelines’ sample, byte for byte', () => {
    const payload = epcPayload({
      version: '001',
      bic: 'BPOTBEB1',
      name: 'Red Cross of Belgium',
      iban: 'BE72000000001616',
      amount: '1',
      purpose: 'CHAR',
      text: 'Urgency fund',
      information: 'Sample EPC QR code',
    });
    assert.equal(payload, EPC_SAMPLE);
  });

  test('version 002 with no BIC, a creditor reference: the lines after the last populated one are left out', () => {
    const payload = epcPayload({ ...GIRO, reference: 'rf18 5390 0754 7034' });
    assert.equal(payload, ['BCD', '002', '1', 'SCT', '', 'Müller & Söhne GmbH', 'DE89370400440532013000', 'EUR1109.7', '', 'RF18539007547034'].join('\n'));
    assert.equal(payload.endsWith('\n'), false);
  });

  test('no amount leaves its line empty; a text goes on line 11 with line 10 empty', () => {
    const payload = epcPayload({ name: 'Red Cross', iban: 'BE72000000001616', text: 'Donation' });
    assert.deepEqual(payload.split('\n').slice(7), ['', '', '', 'Donation']);
  });

  const refusals: [string, Record<string, string>, RegExp][] = [
    ['iban', { iban: 'DE88 3704 0044 0532 0130 00' }, /^iban: the IBAN's check digits \(88\) do not match/],
    ['iban', { iban: 'DE89 3704 0044 0532 0130' }, /^iban: an IBAN of DE has 22 characters, not 20/],
    ['iban', { iban: 'ZZ89370400440532013000' }, /^iban: ZZ is not a country that has IBANs/],
    ['iban', { iban: '' }, /^iban: an IBAN is required/],
    ['bic', { bic: 'COBADE' }, /^bic: "COBADE" is not a BIC/],
    ['bic', { version: '001' }, /^bic: version 001 needs the BIC/],
    ['name', { name: ' ' }, /^name: the beneficiary’s name is required/],
    ['name', { name: 'x'.repeat(71) }, /^name: 71 characters; EPC069-12 allows at most 70/],
    ['name', { name: 'Line one\nline two' }, /^name: a line break would end the field early/],
    ['amount', { amount: '1000000000.00' }, /^amount: 1000000000.00 is above the largest amount/],
    ['amount', { amount: '0.00' }, /^amount: the amount must be at least 0.01/],
    ['amount', { amount: '12.345' }, /^amount: "12.345" is not an amount/],
    ['amount', { amount: '1,50' }, /^amount: "1,50" is not an amount/],
    ['reference', { reference: 'RF19539007547034' }, /^reference: the creditor reference's check digits \(19\) do not match/],
    ['reference', { reference: 'RF18 5390 0754 7034 1234 5678 90' }, /^reference: "RF18 5390 0754 7034 1234 5678 90" is not a creditor reference/],
    ['reference', { reference: 'RF18539007547034', text: 'both' }, /^reference: give either a creditor reference or a text/],
    ['text', { text: 'x'.repeat(141) }, /^text: 141 characters; EPC069-12 allows at most 140/],
    ['text', { name: 'é'.repeat(70), text: 'é'.repeat(140), information: 'é'.repeat(70) }, /^text: the code would carry \d+ bytes; EPC069-12 allows 331/],
    ['purpose', { purpose: 'charity' }, /^purpose: "charity" is not a purpose code/],
    ['version', { version: '003' }, /^version: "003" is not an EPC QR version/],
  ];
  for (const [field, change, detail] of refusals)
    test(`refuses ${field}: ${JSON.stringify(change).slice(0, 60)}`, () => {
      assert.throws(
        () => epcPayload({ ...GIRO, ...change }),
        (error) => error instanceof PaymentDataError && error.field === field && detail.test(error.message),
      );
    });
});

describe('EPC QR code drawn', () => {
  test('zbarimg reads back the payload byte for byte, UTF-8 names included', async () => {
    const attributes = { ...GIRO, bic: 'COBADEFFXXX', reference: 'RF18539007547034', information: 'Rechnung RE-2026-0042 · danke' };
    const svg = await epcQrSvg(attributes);
    assert.match(svg, /^<svg width="40mm" height="40mm" role="img" aria-label="EPC QR code \(GiroCode\): pay 1109.7 EUR to Müller &#38; Söhne GmbH/);
    assert.deepEqual(await decodeQrCodes(rasteriseSvg(svg)), [epcPayload(attributes)]);
  });

  test('a size that is no length is refused, named', async () => {
    await assert.rejects(epcQrSvg({ ...GIRO, size: '40' }), (error) => error instanceof PaymentDataError && error.field === 'size');
  });
});
