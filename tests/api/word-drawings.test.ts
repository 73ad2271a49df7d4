// Barcodes, payment codes and charts in a Word template's data, against a real LibreOffice: a docx
// written in the test prints a QR code, an EAN-13, a GiroCode and a chart from data, each on its own
// page; the pages are rasterised (pdftoppm) and read back by zbarimg, the chart's labels by
// pdftotext; the drawings stay vectors (no image in the PDF). Bad payment data is a 400 naming its path.

import assert from 'node:assert/strict';
import { epcPayload } from '../../server/src/payments/epc-qr.ts';
import { zbarSymbols } from '../helpers/barcode-decode.ts';
import { officeTest } from '../helpers/needs-office.ts';
import { base64, docx } from '../helpers/office-fixtures.ts';
import { imagesOf, pageTexts } from '../helpers/pdf-cli.ts';
import { decodeQrCodes, rasterisePdfPage } from '../helpers/qr-decode.ts';
import { errorOf, startTestServer, usageOf } from '../helpers/start-app.ts';

const LINK = 'https://example.com/invoices/INV-2026-042?pay=1';
const EPC = { name: 'Muster Software GmbH', iban: 'DE02120300000000202051', bic: 'BYLADEM1001', amount: '1736.21', text: 'INV-2026-042' };
const SALES = {
  title: { text: 'Sales by quarter' },
  xAxis: { type: 'category', data: ['Q1', 'Q2', 'Q3', 'Q4'] },
  yAxis: { type: 'value' },
  series: [{ type: 'bar', data: { $data: 'sales' } }],
};

officeTest('barcodes, payment codes and charts in Word templates', { timeout: 300_000 }, async (t) => {
  const server = await startTestServer(t, { officeConcurrency: 1 });
  const created = await server.request('POST', '/v1/templates', {
    name: 'Drawings',
    format: 'docx',
    file: base64(docx([['Link {link}'], ['Article {article}'], ['Pay {pay}'], ['Sales {chart}']])),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const { template_id } = (await created.json()) as { template_id: string };
  const data = {
    link: { barcode: { type: 'qrcode', data: LINK, width: '35mm' } },
    article: { barcode: { type: 'ean13', data: '4006381333931', width: '45mm' } },
    pay: { barcode: { type: 'epc-qr', ...EPC } },
    chart: { chart: { option: SALES, width: '150mm', height: '80mm' } },
    sales: [120, 200, 150, 80],
  };

  await t.test('each code decodes to its data off the printed page; the chart prints its labels as text, all as vectors', async () => {
    const before = await usageOf(server);
    const response = await server.render({ template_id, data });
    const pdf = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.status, 200, Buffer.from(pdf).toString().slice(0, 300));
    assert.equal(await usageOf(server), before + 1);
    assert.deepEqual(await decodeQrCodes(await rasterisePdfPage(pdf, 1, 300)), [LINK]);
    assert.deepEqual(zbarSymbols(pdf, 2), ['EAN-13:4006381333931']);
    assert.deepEqual(await decodeQrCodes(await rasterisePdfPage(pdf, 3, 300)), [epcPayload(EPC)]);
    const pages = pageTexts(pdf);
    assert.equal(pages.length, 4);
    for (const label of ['Sales by quarter', 'Q1', 'Q4']) assert.ok(pages[3]!.includes(label), `the chart shows "${label}" as text`);
    // LibreOffice keeps the SVG pictures as vector paths: a PNG would be listed by pdfimages.
    assert.deepEqual(imagesOf(pdf), []);
  });

  await t.test('bad drawing data is a 400 naming the data path and attribute, and nothing is charged', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...data, pay: { barcode: { type: 'epc-qr', ...EPC, iban: 'DE03120300000000202051' } } }, /^data\.pay\.barcode\.iban: /],
      [{ ...data, article: { barcode: { type: 'ean13', data: '400638133393X' } } }, /^data\.article\.barcode\.data: is not a valid EAN-13/],
      [{ ...data, link: { barcode: { type: 'qrcode', data: LINK, colour: 'red' } } }, /^data\.link\.barcode\.colour: is not an attribute/],
      [
        { ...data, chart: { chart: { option: { series: [{ type: 'bar', data: { $data: 'nowhere' } }] } } } },
        /^data\.chart\.chart\.option: asks for "\$data": "nowhere"/,
      ],
      [{ ...data, link: { barcode: 'qrcode' } }, /^data\.link\.barcode must be an object/],
    ];
    for (const [bad, detail] of cases) {
      const before = await usageOf(server);
      const response = await server.render({ template_id, data: bad });
      const error = await errorOf(response);
      assert.equal(error.status, 400, error.detail);
      assert.equal(error.code, 'invalid_request');
      assert.match(error.detail, detail);
      assert.equal(await usageOf(server), before, 'nothing is charged');
    }
  });
});
