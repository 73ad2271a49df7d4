// What GET /v1/documents says made each stored copy, with its page count, for every route that
// keeps one (issue 39, 20): renders (HTML, Markdown, and one made PDF/A, which pdf-lib rewrites
// into object streams), a merge, transforms (one PDF, a split kept as documents, an encrypted
// result) and an office conversion. Each count is checked against pdfinfo on the stored bytes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/start-app.ts';
import { pdfInfo, textPdf } from '../helpers/pdf-cli.ts';
import { officeTest } from '../helpers/needs-office.ts';
import { convert, threePages } from '../helpers/office-checks.ts';
import { base64 } from '../helpers/office-fixtures.ts';

interface Listed {
  id: string;
  filename: string | null;
  source: string;
  pages: number | null;
}

/** The key's stored documents as listed, by filename. */
async function listed(server: TestServer): Promise<Map<string | null, Listed>> {
  const response = await server.request('GET', '/v1/documents?limit=100');
  assert.equal(response.status, 200);
  const { data } = (await response.json()) as { data: Listed[] };
  return new Map(data.map((document) => [document.filename, document]));
}

/** The listed document's source and page count, and the page count pdfinfo reads from its stored bytes. */
async function sourceAndPages(server: TestServer, documents: Map<string | null, Listed>, filename: string, password?: string) {
  const document = documents.get(filename);
  assert.ok(document, `${filename} is listed`);
  const stored = await server.request('GET', `/v1/documents/${document.id}`);
  assert.equal(stored.status, 200);
  const info = pdfInfo(new Uint8Array(await stored.arrayBuffer()), password ? ['-upw', password] : []);
  return { source: document.source, pages: document.pages, pdfinfo: Number(info.Pages) };
}

const b64 = (pdf: Uint8Array) => Buffer.from(pdf).toString('base64');
const pagesOf = (texts: string) => `<style>p { break-after: page }</style>${texts}`;

test('stored documents say what made them, with the page count of the stored PDF', { timeout: 240_000 }, async (t) => {
  const server = await startTestServer(t);
  const ok = async (response: Promise<Response>, status = 200) => {
    const answered = await response;
    assert.equal(answered.status, status, await answered.clone().text());
    return answered;
  };
  const html = pagesOf('<p>One</p><p>Two</p>');
  const options = { wait_until: 'load' };
  await ok(server.render({ html, options, store: true, filename: 'html.pdf' }));
  await ok(server.render({ markdown: '# One\n\n<div style="break-after: page"></div>\n\n# Two', options, store: true, filename: 'markdown.pdf' }));
  await ok(server.render({ html, options: { ...options, pdf_a: 'PDF/A-2b' }, store: true, filename: 'archival.pdf' }));
  const five = b64(await textPdf(['P1', 'P2', 'P3', 'P4', 'P5']));
  const merge = {
    sources: [
      { pdf: five, page_ranges: '1-3' },
      { html, options },
    ],
    store: true,
    filename: 'merged.pdf',
  };
  await ok(server.request('POST', '/v1/pdf/merge', merge));
  const transform = (body: object, status?: number) => ok(server.request('POST', '/v1/pdf/transform', { pdf: five, ...body }), status);
  await transform({ steps: [{ op: 'delete', pages: '2' }], store: true, filename: 'transformed.pdf' });
  const secret = { encrypt: { user_password: 'open-me', owner_password: 'own-it' } };
  await transform({ steps: [{ op: 'insert_blank', after: 5 }], options: secret, store: true, filename: 'locked.pdf' });
  await transform({ steps: [{ op: 'split', ranges: ['1-2', '3-5'], names: ['first.pdf', 'rest.pdf'], output: 'documents' }] }, 201);

  const documents = await listed(server);
  const expected: [string, string, number, string?][] = [
    ['html.pdf', 'render', 2],
    ['markdown.pdf', 'render', 2],
    ['archival.pdf', 'render', 2],
    ['merged.pdf', 'merge', 5],
    ['transformed.pdf', 'transform', 4],
    ['locked.pdf', 'transform', 6, 'open-me'],
    ['first.pdf', 'transform', 2],
    ['rest.pdf', 'transform', 3],
  ];
  for (const [filename, source, pages, password] of expected)
    assert.deepEqual(await sourceAndPages(server, documents, filename, password), { source, pages, pdfinfo: pages }, filename);
});

officeTest('an office conversion kept with store: true lists as office, with its page count', { timeout: 240_000 }, async (t) => {
  const server = await startTestServer(t);
  const { status, text } = await convert(server, { file: base64(threePages), filename: 'report.docx', store: true });
  assert.equal(status, 200, text());
  const documents = await listed(server);
  assert.deepEqual(await sourceAndPages(server, documents, 'report.pdf'), { source: 'office', pages: 3, pdfinfo: 3 });
});
