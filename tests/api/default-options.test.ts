// Every endpoint that renders, called with no options at all: the defaults are what users call
// first (issue #30: POST /v1/image never answered with them on the begin-frame engines). Runs on
// every engine of the matrix (tests/engines/, tests/helpers/engine-lane.ts); each result is read back
// (page count and text of the PDF, size of the image).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/start-app.ts';
import { startFixtureServer } from '../helpers/fixture-server.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { decodePng } from '../helpers/image.ts';
import { officeTest } from '../helpers/needs-office.ts';
import { base64, odt } from '../helpers/office-fixtures.ts';
import { waitForBatch, type BatchJson } from '../helpers/batches.ts';
import { engineUnderTest } from '../helpers/engines.ts';

/** The PDF a response carries, its status checked first (with the body quoted when it is not 200). */
async function pdfOf(response: Response): Promise<{ pages: number; text: string }> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, Buffer.from(bytes).toString().slice(0, 300));
  assert.equal(response.headers.get('content-type'), 'application/pdf');
  const pdf = await inspectPdf(bytes);
  return { pages: pdf.pages.length, text: pdf.text };
}

/** The PNG a response carries, its status and type checked first: its pixel size. */
async function pngSizeOf(response: Response): Promise<[number, number]> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, Buffer.from(bytes).toString().slice(0, 300));
  assert.equal(response.headers.get('content-type'), 'image/png');
  const png = decodePng(bytes);
  return [png.width, png.height];
}

const on = ` on ${engineUnderTest.name}`;

test(`every rendering endpoint answers with default options${on}`, { timeout: 180_000 }, async (t) => {
  const site = await startFixtureServer({ '/page': '<h1>From the site</h1>' });
  t.after(() => site.close());
  // Four slots: the image subtest's captures then run on lanes of their own, fresh ones among them.
  const server: TestServer = await startTestServer(t, { allowHosts: [`127.0.0.1:${site.port}`], renderConcurrency: 4 });

  await t.test('POST /v1/pdf {html}', async () => {
    const pdf = await pdfOf(await server.render({ html: '<h1>Hello</h1>' }));
    assert.deepEqual([pdf.pages, pdf.text], [1, 'Hello']);
  });

  await t.test('POST /v1/pdf {url}', async () => {
    const pdf = await pdfOf(await server.render({ url: `${site.url}/page` }));
    assert.deepEqual([pdf.pages, pdf.text], [1, 'From the site']);
  });

  await t.test('POST /v1/pdf {template_id, data}', async () => {
    const created = await server.request('POST', '/v1/templates', { name: 'greeting', html: '<h1>Hello {{name}}</h1>' });
    assert.equal(created.status, 201);
    const { template_id } = (await created.json()) as { template_id: string };
    const pdf = await pdfOf(await server.render({ template_id, data: { name: 'Ada' } }));
    assert.deepEqual([pdf.pages, pdf.text], [1, 'Hello Ada']);
  });

  await t.test('POST /v1/pdf {markdown}', async () => {
    const pdf = await pdfOf(await server.render({ markdown: '# Hello\n\nA *short* note.' }));
    assert.equal(pdf.pages, 1);
    assert.match(pdf.text, /Hello A short note\./);
  });

  await t.test('POST /v1/image {html}: a PNG of the default 1280 x 800 viewport', async () => {
    assert.deepEqual(await pngSizeOf(await server.request('POST', '/v1/image', { html: '<h1>Hello</h1>' })), [1280, 800]);
  });

  // Issue 40: on engines without begin-frame control a capture on a held virtual clock could wait
  // for a frame that never came (1 in 10 under load, most often a lane's first capture), until the
  // render's timeout. Four at a time open lanes beyond the two the launch probe warmed.
  await t.test('POST /v1/image {html}: twelve captures, four at a time, each a 1280 x 800 PNG', async () => {
    for (let round = 0; round < 3; round++) {
      const sizes = await Promise.all(
        Array.from({ length: 4 }, async (_, i) => pngSizeOf(await server.request('POST', '/v1/image', { html: `<h1>Capture ${round * 4 + i}</h1>` }))),
      );
      assert.deepEqual(sizes, Array(4).fill([1280, 800]));
    }
  });

  await t.test('POST /v1/pdf/merge {sources}', async () => {
    const pdf = await pdfOf(await server.request('POST', '/v1/pdf/merge', { sources: [{ html: '<p>First</p>' }, { markdown: 'Second' }] }));
    assert.deepEqual([pdf.pages, pdf.text], [2, 'First\nSecond']);
  });

  await t.test('POST /v1/pdf/batch {requests}', async () => {
    const response = await server.request('POST', '/v1/pdf/batch', { requests: [{ html: '<p>Item one</p>' }, { markdown: 'Item two' }] });
    assert.ok(response.status === 200 || response.status === 202, `status ${response.status}`);
    const sent = (await response.json()) as BatchJson;
    const batch = sent.status === 'completed' ? sent : await waitForBatch(server, sent.batch_id);
    const texts: string[] = [];
    for (const result of batch.results) {
      assert.equal(result.status, 'succeeded', JSON.stringify(result));
      texts.push((await pdfOf(await server.request('GET', `/v1/documents/${result.document_id}`))).text);
    }
    assert.deepEqual(texts, ['Item one', 'Item two']);
  });

  await t.test('POST /v1/playground/pdf {html}', async () => {
    const pdf = await pdfOf(await server.requestWithoutKey('POST', '/v1/playground/pdf', { html: '<h1>Anyone</h1>' }));
    assert.deepEqual([pdf.pages, pdf.text], [1, 'Anyone']);
  });

  await t.test('POST /admin/v1/templates/preview {html}', async () => {
    const pdf = await pdfOf(await server.admin('POST', '/admin/v1/templates/preview', { html: '<h1>Preview</h1>' }));
    assert.deepEqual([pdf.pages, pdf.text], [1, 'Preview']);
  });
});

officeTest(`office conversions answer with default options${on}`, { timeout: 180_000 }, async (t) => {
  const server = await startTestServer(t);
  const file = base64(odt(['An office letter']));

  await t.test('POST /v1/convert/office {file, filename}', async () => {
    const pdf = await pdfOf(await server.request('POST', '/v1/convert/office', { file, filename: 'letter.odt' }));
    assert.deepEqual([pdf.pages, pdf.text], [1, 'An office letter']);
  });

  await t.test('POST /admin/v1/convert/office/preview {file, filename}', async () => {
    const pdf = await pdfOf(await server.admin('POST', '/admin/v1/convert/office/preview', { file, filename: 'letter.odt' }));
    assert.deepEqual([pdf.pages, pdf.text], [1, 'An office letter']);
  });
});
