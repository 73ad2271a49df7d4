// <quire-barcode> on a real Chromium, read back from the printed PDF by independent decoders
// (docs/api.md#barcodes-and-charts): every kind decodes to its data from a rasterised page, and no
// page holds an image (the codes are vectors); the element works in HTML, Markdown and a template
// filling its attributes from data; wrong data is a 400 element_invalid naming the element, its
// line and attribute, and nothing is charged.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, usageOf } from '../helpers/start-app.ts';
import { imagesOf, pageTexts } from '../helpers/pdf-cli.ts';
import { dataMatrixSymbols, zbarSymbols } from '../helpers/barcode-decode.ts';

async function pdfOf(response: Response): Promise<Uint8Array> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, `expected a PDF, got ${response.status}: ${Buffer.from(bytes.subarray(0, 300)).toString()}`);
  return bytes;
}

// One code per page, so each page's decoder answer belongs to one element. The QR's data has
// characters HTML escapes: what prints is the decoded value, not the reference.
const PAGES: { element: string; zbar?: string; dmtx?: string }[] = [
  {
    element: '<quire-barcode type="qrcode" data="https://example.com/pay?id=42&amp;to=&quot;Ada&quot;" width="40mm"></quire-barcode>',
    zbar: 'QR-Code:https://example.com/pay?id=42&to="Ada"',
  },
  { element: '<quire-barcode type="code128" data="QUIRE-2026-0042" text="true" scale="1.5"></quire-barcode>', zbar: 'CODE-128:QUIRE-2026-0042' },
  { element: '<quire-barcode type="ean13" data="5901234123457"></quire-barcode>', zbar: 'EAN-13:5901234123457' },
  { element: '<QUIRE-BARCODE TYPE="upca" DATA="036000291452" scale="1.5"/>', zbar: 'UPC-A:036000291452' },
  // Debian's zbarimg (0.23.92) is built without PDF417, and dmtxread reads DataMatrix only: this
  // page is checked for its vectors only (no raster image), not decoded.
  { element: '<quire-barcode type="pdf417" data="Quire PDF417 42" scale="1.5" ec-level="4"></quire-barcode>' },
  { element: '<quire-barcode type="datamatrix" data="Quire DataMatrix 42" width="30mm"></quire-barcode>', dmtx: 'Quire DataMatrix 42' },
];

const html = (bodies: string[]) =>
  `<!doctype html><html><body style="margin:20mm">${bodies.map((body, i) => `<section style="break-after:page"><p>Code ${i + 1}</p>${body}</section>`).join('')}</body></html>`;

test('quire-barcode', async (t) => {
  const server = await startTestServer(t);

  await t.test('every kind prints as vectors and decodes to its data with zbarimg or dmtxread', async () => {
    const pdf = await pdfOf(await server.render({ html: html(PAGES.map((page) => page.element)) }));
    assert.equal(pageTexts(pdf).length, PAGES.length);
    assert.deepEqual(imagesOf(pdf), [], 'no raster image on any page: the codes are drawn as paths');
    for (const [i, page] of PAGES.entries()) {
      if (page.zbar) assert.deepEqual(zbarSymbols(pdf, i + 1), [page.zbar], `page ${i + 1}`);
      if (page.dmtx) assert.deepEqual(dataMatrixSymbols(pdf, i + 1), [page.dmtx], `page ${i + 1}`);
    }
  });

  await t.test('a template fills the attributes from data, escaped, and the code decodes to the value', async () => {
    const created = await server.request('POST', '/v1/templates', {
      name: 'barcode invoice',
      html: '<h1>Invoice {{number}}</h1><quire-barcode type="qrcode" data="{{payment.text}}" width="45mm" alt="Pay {{number}}"></quire-barcode>',
    });
    assert.equal(created.status, 201);
    const { template_id: id } = (await created.json()) as { template_id: string };
    // A value that tries to close the attribute and add markup stays data: it is what the QR holds.
    const text = 'IBAN DE89370400440532013000 "><script>x()</script>';
    const pdf = await pdfOf(await server.render({ template_id: id, data: { number: 'F-7', payment: { text } } }));
    assert.deepEqual(zbarSymbols(pdf, 1), [`QR-Code:${text}`]);
    assert.doesNotMatch(pageTexts(pdf)[0]!, /script/);
  });

  await t.test('raw HTML in Markdown: the element is drawn, a fenced example of it stays text', async () => {
    const markdown = [
      '# Parcel',
      '',
      '<quire-barcode type="code128" data="PARCEL-9"></quire-barcode>',
      '',
      '```html',
      '<quire-barcode type="ean13" data="bad">',
      '```',
    ].join('\n');
    const pdf = await pdfOf(await server.render({ markdown }));
    assert.deepEqual(zbarSymbols(pdf, 1), ['CODE-128:PARCEL-9']);
    assert.match(pageTexts(pdf)[0]!, /<quire-barcode type="ean13" data="bad">/);
  });

  await t.test('wrong data is 400 element_invalid naming the element, line and attribute, uncharged', async () => {
    const before = await usageOf(server);
    const cases = [
      { element: '<quire-barcode type="ean13" data="590123412345X">', attribute: 'data', reason: /EAN-13 must contain only digits/ },
      { element: '<quire-barcode type="ean13" data="5901234123458">', attribute: 'data', reason: /check digit/ },
      { element: `<quire-barcode type="qrcode" data="${'9'.repeat(7089)}" ec-level="H">`, attribute: 'data', reason: /Maximum length exceeded/ },
      { element: '<quire-barcode type="aztec" data="1">', attribute: 'type', reason: /must be one of qrcode, code128/ },
      { element: '<quire-barcode type="ean13" data="5901234123457" ec-level="H">', attribute: 'ec-level', reason: /qrcode .* and pdf417/ },
      { element: '<quire-barcode type="qrcode" data="x" widht="3cm">', attribute: 'widht', reason: /not an attribute/ },
    ];
    for (const { element, attribute, reason } of cases) {
      const response = await server.render({ html: `<p>first line</p>\n<div>${element}</div>` });
      const body = (await response.json()) as { code: string; detail: string; element: string; line: number; attribute: string };
      assert.equal(response.status, 400, body.detail);
      assert.equal(body.code, 'element_invalid');
      assert.deepEqual([body.element, body.line, body.attribute], ['quire-barcode', 2, attribute]);
      assert.match(body.detail, new RegExp(`^<quire-barcode> on line 2 of the document, attribute ${attribute}: `));
      assert.match(body.detail, reason);
    }
    assert.equal(await usageOf(server), before, 'no refused render is charged');
  });
});
