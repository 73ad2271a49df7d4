// Payment codes through the page element (docs/payment-codes.md): <quire-barcode type="epc-qr"> and
// type="swiss-qr-bill" in a template, filled from data, printed by Chromium and read back off the
// page by zbarimg, byte for byte the payload payments/ specifies; a value a bank would refuse is a
// 400 element_invalid naming the attribute, and nothing is charged.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { epcPayload } from '../../server/src/payments/epc-qr.ts';
import { swissQrBillFrom, swissQrPayload } from '../../server/src/payments/swiss-qr-payload.ts';
import { startTestServer, usageOf, errorOf } from '../helpers/start-app.ts';
import { pageTexts } from '../helpers/pdf-cli.ts';
import { decodeQrCodes, rasterisePdfPage } from '../helpers/qr-decode.ts';

const EPC = { name: 'Muster Software GmbH', iban: 'DE02120300000000202051', bic: 'BYLADEM1001', amount: '1736.21', text: 'RE-2026-0042' };
// Short enough for a QR code below version 7, which zbarimg reads with the Swiss cross in place.
const BILL = {
  account: 'CH4431999123000889012',
  'creditor-name': 'Robert Schneider AG',
  'creditor-postcode': '2501',
  'creditor-town': 'Biel',
  'creditor-country': 'CH',
  reference: '210000000003139471430009017',
};

const attributes = (values: Record<string, string>) =>
  Object.keys(values)
    .map((name) => `${name}="{{${name.replace(/-/g, '_')}}}"`)
    .join(' ');
const dataOf = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([name, value]) => [name.replace(/-/g, '_'), value]));

test('payment codes as <quire-barcode> elements', async (t) => {
  const server = await startTestServer(t);
  const template = async (html: string) => {
    const created = await server.request('POST', '/v1/templates', { name: 'payment code', html });
    assert.equal(created.status, 201, await created.clone().text());
    return ((await created.json()) as { template_id: string }).template_id;
  };

  await t.test('a GiroCode filled from template data decodes to the EPC069-12 payload', async () => {
    const id = await template(`<h1>Invoice</h1><quire-barcode type="epc-qr" ${attributes(EPC)}></quire-barcode>`);
    const response = await server.render({ template_id: id, data: dataOf(EPC) });
    assert.equal(response.status, 200, await response.clone().text());
    const pdf = new Uint8Array(await response.arrayBuffer());
    assert.deepEqual(await decodeQrCodes(await rasterisePdfPage(pdf, 1, 200)), [epcPayload(EPC)]);
  });

  await t.test("a Swiss QR-bill's payment part prints with its receipt, and its QR decodes to the SPC payload", async () => {
    const id = await template(`<quire-barcode type="swiss-qr-bill" ${attributes(BILL)}></quire-barcode>`);
    const response = await server.render({ template_id: id, data: dataOf(BILL) });
    assert.equal(response.status, 200, await response.clone().text());
    const pdf = new Uint8Array(await response.arrayBuffer());
    assert.deepEqual(await decodeQrCodes(await rasterisePdfPage(pdf, 1, 300)), [swissQrPayload(swissQrBillFrom(BILL))]);
    assert.match(pageTexts(pdf)[0]!, /Receipt[\s\S]*Payment part/);
  });

  await t.test('a bad IBAN check digit is a 400 element_invalid naming the attribute, and nothing is charged', async () => {
    const before = await usageOf(server);
    const response = await server.render({ html: `<quire-barcode type="epc-qr" name="A" iban="DE03120300000000202051"></quire-barcode>` });
    const error = await errorOf(response);
    assert.equal(error.status, 400);
    assert.equal(error.code, 'element_invalid');
    assert.match(error.detail, /iban/);
    assert.equal(await usageOf(server), before);
  });
});
