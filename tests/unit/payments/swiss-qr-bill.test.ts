// The Swiss QR-bill: payloads laid out as the Implementation Guidelines' examples (QR reference
// with a QR-IBAN, creditor reference, no reference and no amount), every refusal naming its
// attribute, and the drawn payment part: its size, the cross, and its QR code read by zbarimg.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PaymentDataError } from '../../../server/src/payments/errors.ts';
import { swissQrBillSvg } from '../../../server/src/payments/swiss-qr-bill-svg.ts';
import { swissQrBillFrom, swissQrPayload } from '../../../server/src/payments/swiss-qr-payload.ts';
import { decodeQrCodes, rasteriseSvg } from '../../helpers/qr-decode.ts';

const CREDITOR = {
  'creditor-name': 'Robert Schneider AG',
  'creditor-street': 'Rue du Lac',
  'creditor-building': '1268',
  'creditor-postcode': '2501',
  'creditor-town': 'Biel',
  'creditor-country': 'CH',
};
const DEBTOR = {
  'debtor-name': 'Pia-Maria Rutschmann-Schnyder',
  'debtor-street': 'Grosse Marktgasse',
  'debtor-building': '28',
  'debtor-postcode': '9400',
  'debtor-town': 'Rorschach',
  'debtor-country': 'CH',
};
const QRR_BILL = {
  account: 'CH44 3199 9123 0008 8901 2',
  ...CREDITOR,
  amount: '1949.75',
  ...DEBTOR,
  reference: '21 00000 00003 13947 14300 09017',
  message: 'Order of 15 June 2020',
};
const EMPTY7 = ['', '', '', '', '', '', ''];
const CREDITOR_LINES = ['S', 'Robert Schneider AG', 'Rue du Lac', '1268', '2501', 'Biel', 'CH'];
const DEBTOR_LINES = ['S', 'Pia-Maria Rutschmann-Schnyder', 'Grosse Marktgasse', '28', '9400', 'Rorschach', 'CH'];

const payloadOf = (attributes: Record<string, string>) => swissQrPayload(swissQrBillFrom(attributes));

describe('Swiss QR-bill payload', () => {
  test('the guidelines’ example with a QR-IBAN and a QR reference, billing information after EPD', () => {
    const billing = '//S1/10/10201409/11/200701/20/140.000-53/30/102673831/31/200615/32/7.7/33/7.7:5.00/40/0:30';
    const payload = payloadOf({ ...QRR_BILL, message: 'Order of 15 June 2020', billing });
    const expected = ['SPC', '0200', '1', 'CH4431999123000889012', ...CREDITOR_LINES, ...EMPTY7, '1949.75', 'CHF', ...DEBTOR_LINES];
    expected.push('QRR', '210000000003139471430009017', 'Order of 15 June 2020', 'EPD', billing);
    assert.equal(payload, expected.join('\n'));
  });

  test('an ordinary IBAN with a creditor reference (SCOR), in EUR, no debtor: 31 lines, none after EPD', () => {
    const payload = payloadOf({ account: 'CH5800791123000889012', ...CREDITOR, amount: '199.95', currency: 'eur', reference: 'RF18 5390 0754 7034' });
    const lines = payload.split('\n');
    assert.equal(lines.length, 31);
    assert.deepEqual(lines.slice(18), ['199.95', 'EUR', ...EMPTY7, 'SCOR', 'RF18539007547034', '', 'EPD']);
  });

  test('no amount and no reference: NON, the amount left for the payer', () => {
    const lines = payloadOf({ account: 'CH5204835012345671000', ...CREDITOR }).split('\n');
    assert.deepEqual(lines.slice(18, 21), ['', 'CHF', '']);
    assert.deepEqual(lines.slice(27), ['NON', '', '', 'EPD']);
  });

  test('an amount is written with two decimals', () => {
    assert.equal(payloadOf({ ...QRR_BILL, amount: '50' }).split('\n')[18], '50.00');
    assert.equal(payloadOf({ ...QRR_BILL, amount: '999999999.99' }).split('\n')[18], '999999999.99');
  });

  const refusals: [string, Record<string, string>, RegExp][] = [
    ['account', { account: 'CH4431999123000889013' }, /^account: the IBAN's check digits \(44\) do not match/],
    ['account', { account: 'DE89370400440532013000' }, /^account: a QR-bill pays into a Swiss or Liechtenstein account/],
    ['reference', { account: 'CH5800791123000889012' }, /^reference: a QR reference needs a QR-IBAN/],
    ['reference', { reference: 'RF18539007547034' }, /^reference: CH4431999123000889012 is a QR-IBAN/],
    ['reference', { reference: '' }, /^reference: CH4431999123000889012 is a QR-IBAN/],
    ['reference', { reference: '210000000003139471430009018' }, /^reference: the QR reference's check digit is 8, but its first 26 digits need 7/],
    ['reference', { reference: '2100000000031394714300090' }, /^reference: "2100000000031394714300090" is not a QR reference: 27 digits/],
    ['amount', { amount: '1000000000' }, /^amount: 1000000000 is above the largest amount/],
    ['amount', { amount: '-5' }, /^amount: "-5" is not an amount/],
    ['currency', { currency: 'USD' }, /^currency: "USD" is not a QR-bill currency/],
    ['creditor-name', { 'creditor-name': 'x'.repeat(71) }, /^creditor-name: 71 characters; the QR-bill allows at most 70/],
    ['creditor-name', { 'creditor-name': '' }, /^creditor-name: the creditor’s name is required/],
    ['creditor-town', { 'creditor-town': 'Biel\nBienne' }, /^creditor-town: a line break is not in the character set/],
    ['creditor-building', { 'creditor-building': '1'.repeat(17) }, /^creditor-building: 17 characters; the QR-bill allows at most 16/],
    ['creditor-country', { 'creditor-country': 'C1' }, /^creditor-country: "C1" is not a country code/],
    ['debtor-postcode', { 'debtor-postcode': '' }, /^debtor-postcode: the debtor’s postcode is required/],
    ['message', { message: 'Invoice 😀' }, /^message: "😀" \(U\+1F600\) is not in the character set/],
    ['message', { message: 'x'.repeat(141) }, /^message: 141 characters; the QR-bill allows at most 140/],
    ['message', { message: 'x'.repeat(100), billing: `//S1/${'1'.repeat(50)}` }, /^message: the message and the billing information together/],
    ['billing', { billing: 'S1/10/10201409' }, /^billing: billing information starts with "\/\/"/],
  ];
  for (const [field, change, detail] of refusals)
    test(`refuses ${field}: ${JSON.stringify(change).slice(0, 60)}`, () => {
      assert.throws(
        () => swissQrBillFrom({ ...QRR_BILL, ...change }),
        (error) => error instanceof PaymentDataError && error.field === field && detail.test(error.message),
      );
    });
});

describe('Swiss QR-bill payment part drawn', () => {
  test('210 x 105 mm, the QR code 46 x 46 mm at 67/17 with the cross 7 x 7 mm in its middle, the amount and both titles', async () => {
    const svg = await swissQrBillSvg(QRR_BILL);
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 210 105" width="210mm" height="105mm" role="img"/);
    assert.match(svg, /<svg x="67" y="17" width="46" height="46" viewBox="0 0 \d+ \d+"/);
    assert.match(svg, /<rect x="86.5" y="36.5" width="7" height="7" fill="#fff"\/><rect x="87" y="37" width="6" height="6" fill="#000"\/>/);
    for (const words of [
      'Receipt',
      'Payment part',
      'Account / Payable to',
      'CH44 3199 9123 0008 8901 2',
      '21 00000 00003 13947 14300 09017',
      '1 949.75',
      'Acceptance point',
    ])
      assert.ok(svg.includes(`>${words}</text>`), words);
    assert.doesNotMatch(svg, /Separate before paying in/);
  });

  test('the QR code carries the payload byte for byte (read by zbarimg with the cross left out; see the note)', async () => {
    const svg = await swissQrBillSvg(QRR_BILL);
    // zbar takes the Swiss cross (a dark square with a light cross) for the alignment pattern at
    // the code's centre (versions 7 and up) and loses the grid; phones and banking apps read it.
    // A plain white square of the same 7 mm in its place keeps the damage the cross does to the
    // modules under it, so error correction M is still shown to carry the payload through it.
    const plain = svg.replace(
      /<rect x="86.5" y="36.5" width="7" height="7" fill="#fff"\/>(<rect [^>]*\/>){3}/,
      '<rect x="86.5" y="36.5" width="7" height="7" fill="#fff"/>',
    );
    assert.notEqual(plain, svg);
    assert.deepEqual(await decodeQrCodes(rasteriseSvg(plain)), [payloadOf(QRR_BILL)]);
  });

  test('no amount and no debtor: corner marks to write in; German labels; the separation text above', async () => {
    const svg = await swissQrBillSvg({ account: 'CH5800791123000889012', ...CREDITOR, language: 'de', separator: 'text' });
    assert.match(svg, /viewBox="0 -5 210 110" width="210mm" height="110mm"/);
    for (const words of ['Empfangsschein', 'Zahlteil', 'Zahlbar durch (Name/Adresse)', 'Vor der Einzahlung abzutrennen'])
      assert.ok(svg.includes(`>${words}</text>`), words);
    assert.equal(
      (svg.match(/<path d="M[^"]*" fill="none" stroke="#000" stroke-width="0.265"\/>/g) ?? []).length,
      4,
      'two boxes for the payer, two for the amount',
    );
    assert.deepEqual(await decodeQrCodes(rasteriseSvg(svg)), [payloadOf({ account: 'CH5800791123000889012', ...CREDITOR })]);
  });

  test('a language or separator it does not know is refused, named', async () => {
    await assert.rejects(swissQrBillSvg({ ...QRR_BILL, language: 'rm' }), (error) => error instanceof PaymentDataError && error.field === 'language');
    await assert.rejects(swissQrBillSvg({ ...QRR_BILL, separator: 'scissors' }), (error) => error instanceof PaymentDataError && error.field === 'separator');
  });
});
