// POST /v1/pdf/merge against a real Chromium: stored documents, uploaded PDFs and renders joined
// in order, cut by page_ranges, with the charge per rendered source, the merge options on the
// result, and each kind of bad source refused by index before anything is charged.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument as CantooDocument } from '@cantoo/pdf-lib';
import { PDFDocument } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { errorOf, startTestServer } from '../helpers/start-app.ts';
import { inspectPdf } from '../helpers/pdf.ts';

async function uploadPdf(pages: string[], encrypt = false): Promise<string> {
  const doc = await CantooDocument.create();
  for (const text of pages) doc.addPage([300, 300]).drawText(text, { x: 20, y: 150, size: 20 });
  if (encrypt) doc.encrypt({ ownerPassword: 'o', userPassword: 'u' });
  return Buffer.from(await doc.save()).toString('base64');
}

/** pdf.js's outline entries (their nested items are untyped in pdf.js's declarations). */
type OutlineItem = Awaited<ReturnType<Awaited<ReturnType<typeof getDocument>['promise']>['getOutline']>>[number];

/** The outline as [title, page number, children] entries. */
async function outlineOf(bytes: Uint8Array): Promise<unknown[]> {
  const doc = await getDocument({ data: bytes.slice(), isEvalSupported: false, verbosity: 0 }).promise;
  const convert = async (items: OutlineItem[] | null): Promise<unknown[]> =>
    Promise.all((items ?? []).map(async (item) => [item.title, (await doc.getPageIndex(item.dest![0])) + 1, await convert(item.items)]));
  const outline = await convert(await doc.getOutline());
  await doc.destroy();
  return outline;
}

test('POST /v1/pdf/merge', async (t) => {
  const server = await startTestServer(t);
  const usage = async () => Number((await server.render({ html: '<p>probe</p>', options: { wait_until: 'load' } })).headers.get('x-service-usage'));

  const stored = await server.render({
    html: '<title>Stored</title><p>Stored one</p><p style="break-before: page">Stored two</p>',
    options: { wait_until: 'load' },
    store: true,
  });
  assert.equal(stored.status, 200);
  const documentId = stored.headers.get('x-document-id')!;
  const upload = await uploadPdf(['Upload 1', 'Upload 2', 'Upload 3']);

  await t.test('joins the sources in order, cut by page_ranges, charging one per rendered source', async () => {
    const before = await usage();
    const response = await server.request('POST', '/v1/pdf/merge', {
      sources: [
        { html: '<title>First</title><h1>Rendered first</h1><h2>Part</h2>', options: { wait_until: 'load', outline: true } },
        { pdf: upload, page_ranges: '3, 1' },
        { document_id: documentId, page_ranges: '2' },
        { html: '<p>Rendered last</p>', options: { wait_until: 'load' } },
      ],
      options: { outline: true, metadata: { title: 'Bundle' }, watermark: { text: 'MERGED', pages: '1' } },
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.status, 200, Buffer.from(bytes).toString().slice(0, 300));
    assert.equal(Number(response.headers.get('x-service-usage')), before + 2, 'two rendered sources, charged two');
    const { pages } = await inspectPdf(bytes);
    assert.deepEqual(
      pages.map((page) => page.text.replace('MERGED', '').trim()),
      ['Rendered first Part', 'Upload 3', 'Upload 1', 'Stored two', 'Rendered last'],
    );
    assert.match(pages[0]!.text, /MERGED/);
    assert.doesNotMatch(pages[1]!.text, /MERGED/);
    assert.equal((await PDFDocument.load(bytes, { updateMetadata: false })).getTitle(), 'Bundle');
    // One bookmark per source at its first page; a rendered source's own headings nested under it.
    assert.deepEqual(await outlineOf(bytes), [
      ['First', 1, [['Rendered first', 1, [['Part', 1, []]]]]],
      ['Document 2', 2, []],
      ['Stored', 4, []],
      ['Document 4', 5, []],
    ]);
  });

  await t.test('a merge of stored and uploaded PDFs only is charged one document, and can be stored', async () => {
    const before = await usage();
    const response = await server.request('POST', '/v1/pdf/merge', {
      sources: [{ document_id: documentId }, { pdf: upload }],
      store: true,
      filename: 'bundle.pdf',
    });
    assert.equal(response.status, 200);
    assert.equal(Number(response.headers.get('x-service-usage')), before + 1);
    const id = response.headers.get('x-document-id');
    assert.match(id ?? '', /^doc_/);
    const copy = await server.request('GET', `/v1/documents/${id}`);
    assert.equal((await inspectPdf(new Uint8Array(await copy.arrayBuffer()))).pages.length, 5);
  });

  await t.test('a template source renders the version it names', async () => {
    const created = (await (await server.request('POST', '/v1/templates', { name: 'm', html: '<p>Version one {{x}}</p>' })).json()) as { template_id: string };
    const replaced = await server.request('PUT', `/v1/templates/${created.template_id}`, { name: 'm', html: '<p>Version two {{x}}</p>' });
    assert.equal(replaced.status, 200);
    const response = await server.request('POST', '/v1/pdf/merge', {
      sources: [
        { template_id: created.template_id, template_version: 1, data: { x: 'A' }, options: { wait_until: 'load' } },
        { template_id: created.template_id, data: { x: 'B' }, options: { wait_until: 'load' } },
      ],
    });
    assert.equal(response.status, 200);
    const { pages } = await inspectPdf(new Uint8Array(await response.arrayBuffer()));
    assert.deepEqual(
      pages.map((page) => page.text),
      ['Version one A', 'Version two B'],
    );
  });

  await t.test('an encrypted upload is a 422 password_required naming its index, and nothing is charged', async () => {
    const before = await usage();
    const error = await errorOf(
      await server.request('POST', '/v1/pdf/merge', {
        sources: [{ html: '<p>a</p>', options: { wait_until: 'load' } }, { pdf: await uploadPdf(['x'], true) }],
      }),
    );
    assert.equal(error.status, 422);
    assert.equal(error.code, 'password_required');
    assert.match(error.detail, /sources\[1\]\.pdf is encrypted/);
    assert.equal(await usage(), before + 1, 'only the probe counted');
  });

  await t.test('a damaged upload and one that is not a PDF are both 422 pdf_unreadable naming their index', async () => {
    const damaged = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF').toString('base64');
    const error = await errorOf(await server.request('POST', '/v1/pdf/merge', { sources: [{ pdf: upload }, { pdf: damaged }] }));
    assert.deepEqual([error.status, error.code], [422, 'pdf_unreadable']);
    assert.match(error.detail, /sources\[1\]/);
    const notPdf = await errorOf(await server.request('POST', '/v1/pdf/merge', { sources: [{ pdf: Buffer.from('hello').toString('base64') }] }));
    assert.deepEqual([notPdf.status, notPdf.code], [422, 'pdf_unreadable']);
    assert.match(notPdf.detail, /sources\[0\]\.pdf is not a PDF/);
  });

  await t.test('a page range past the end of a source is a 400 naming it', async () => {
    const error = await errorOf(await server.request('POST', '/v1/pdf/merge', { sources: [{ pdf: upload, page_ranges: '2-9' }] }));
    assert.equal(error.status, 400);
    assert.match(error.detail, /sources\[0\]\.page_ranges names page 4, but the document has 3 pages/);
  });

  await t.test('an unknown document is a 404 naming its index', async () => {
    const error = await errorOf(await server.request('POST', '/v1/pdf/merge', { sources: [{ document_id: 'doc_nope123' }] }));
    assert.equal(error.status, 404);
    assert.equal(error.code, 'document_not_found');
    assert.match(error.detail, /sources\[0\]/);
  });
});
