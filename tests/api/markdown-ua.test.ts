// A Markdown render is tagged-ready, titled and language-marked by default (issue 42 item 4): the
// page gets <html lang> (options.lang, else "en") and a <title> (front matter's title, else the first
// heading, else the file name), so pdf_ua passes with no other option. Real Chromium; the files are
// read with pdfinfo (Title) and qpdf's QDF (/Lang), the text with pdftotext.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../helpers/start-app.ts';
import { pageTexts, pdfInfo, qdfText } from '../helpers/pdf-cli.ts';

test('Markdown with pdf_ua', { timeout: 300_000 }, async (t) => {
  const server = await startTestServer(t);
  const render = async (body: Record<string, unknown>) => {
    const response = await server.render(body);
    const bytes = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.status, 200, Buffer.from(bytes.subarray(0, 600)).toString());
    assert.match(response.headers.get('x-pdf-ua') ?? '', /^PDF\/UA-1; checks=\d+; failed=0$/);
    return bytes;
  };

  await t.test('the first heading is the title and the language is "en" by default', async () => {
    const bytes = await render({ markdown: '# Quarterly report\n\nSales rose.\n\n## Details\n\nMore text.\n', options: { pdf_ua: 'PDF/UA-1' } });
    assert.equal(pdfInfo(bytes).Title, 'Quarterly report');
    assert.match(qdfText(bytes), /\/Lang \(en\)/);
  });

  await t.test('a front matter title wins, the block is not printed, and options.lang marks the file', async () => {
    const markdown = '---\ntitle: "Rechnung 42"\nauthor: Ada\n---\n# Rechnung\n\nVielen Dank.\n';
    const bytes = await render({ markdown, options: { pdf_ua: 'PDF/UA-1', lang: 'de-DE' } });
    assert.equal(pdfInfo(bytes).Title, 'Rechnung 42');
    assert.match(qdfText(bytes), /\/Lang \(de-DE\)/);
    const text = pageTexts(bytes).join('\n');
    assert.match(text, /Vielen Dank/);
    assert.doesNotMatch(text, /author: Ada/, 'the front matter is left out of the page');
  });

  await t.test('without a heading, the file name is the title', async () => {
    const bytes = await render({ markdown: 'Just a paragraph of notes.\n', filename: 'meeting-notes.pdf', options: { pdf_ua: 'PDF/UA-1' } });
    assert.equal(pdfInfo(bytes).Title, 'meeting-notes');
  });
});
