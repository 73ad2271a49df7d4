// Markdown sources (docs/api.md#markdown) on a real Chromium, each read back from the PDF: GitHub-
// flavoured features (tables, task lists, strikethrough, autolinks, footnotes), highlighted code
// (its colours in the page's content), heading bookmarks through options.outline, raw HTML under
// the network guard, options.css extending or replacing the default stylesheet, Markdown
// templates with data, a batch item, a merge source, an image, the playground and the hot folder's
// *.md; bad input is a 400 before anything is charged.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { startTestServer, errorOf, type TestServer } from '../helpers/start-app.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { appears } from '../helpers/wait-for.ts';
import { startRecordingServer } from '../helpers/canary.ts';

const README = [
  '# Quire notes',
  '',
  'Visit www.example.com for ~~old~~ news.[^1]',
  '',
  '| Plan | Documents |',
  '|------|----------:|',
  '| Starter | 1,000 |',
  '| Growth | 10,000 |',
  '',
  '- [x] shipped item',
  '- [ ] open item',
  '',
  '## Install',
  '',
  '```js',
  'const answer = 42; // the answer',
  '```',
  '',
  '## Usage',
  '',
  'Plain text.',
  '',
  '[^1]: A footnote at the end.',
].join('\n');

async function pdfOf(response: Response): Promise<Uint8Array> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, `expected a PDF, got ${response.status}: ${Buffer.from(bytes.subarray(0, 300)).toString()}`);
  return bytes;
}

/** The page's content streams, uncompressed by qpdf (independent of the code that wrote them). */
function contentOf(pdf: Uint8Array, dir: string): string {
  const [input, output] = [path.join(dir, 'in.pdf'), path.join(dir, 'qdf.pdf')];
  writeFileSync(input, pdf);
  execFileSync('qpdf', ['--qdf', '--object-streams=disable', input, output]);
  return readFileSync(output).toString('latin1');
}

async function outlineTitles(pdf: Uint8Array): Promise<unknown[]> {
  const doc = await getDocument({ data: pdf.slice(), isEvalSupported: false, verbosity: 0 }).promise;
  type Item = { title: string; items: Item[] };
  const walk = (items: Item[] | null): unknown[] => (items ?? []).map((item) => (item.items.length ? [item.title, walk(item.items)] : item.title));
  const outline = walk((await doc.getOutline()) as Item[] | null);
  await doc.destroy();
  return outline;
}

async function linkTargets(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf);
  const uris: string[] = [];
  for (const page of doc.getPages()) {
    for (const ref of page.node.Annots()?.asArray() ?? []) {
      const action = doc.context.lookup(ref, PDFDict).lookupMaybe(PDFName.of('A'), PDFDict);
      const uri = action?.lookupMaybe(PDFName.of('URI'), PDFString, PDFHexString);
      if (uri) uris.push(uri.decodeText());
    }
  }
  return uris;
}

async function used(server: TestServer): Promise<number> {
  const response = await server.admin('GET', `/admin/v1/keys/${server.key.id}`);
  return ((await response.json()) as { usage: { used: number } }).usage.used;
}

test('markdown renders to PDF on a real Chromium', { timeout: 240_000 }, async (t) => {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'quire-md-'));
  t.after(() => rm(scratch, { recursive: true, force: true }));
  const canary = await startRecordingServer('127.0.0.1');
  t.after(() => canary.close());
  const watchDir = path.join(scratch, 'watch');
  const server = await startTestServer(t, { watchDir }, { hotFolderIntervalMs: 100 });

  await t.test('GitHub-flavoured Markdown: tables, task lists, strikethrough, autolinks and footnotes', async () => {
    const pdf = await pdfOf(await server.render({ markdown: README, options: { wait_until: 'load' } }));
    const { text } = await inspectPdf(pdf);
    assert.match(text, /Plan Documents Starter 1,000 Growth 10,000/, 'the table cells, in order');
    assert.match(text, /shipped item/);
    assert.doesNotMatch(text, /\[x\]|\[ \]/, 'task markers become checkboxes');
    assert.match(text, /A footnote at the end\./);
    assert.doesNotMatch(text, /\[\^1\]/, 'the footnote reference is resolved');
    const links = await linkTargets(pdf);
    assert.ok(links.includes('http://www.example.com/'), `www.example.com is a link: ${links}`);
    const content = contentOf(pdf, scratch);
    // The default stylesheet's table header background and GitHub's keyword red for "const" show
    // that the stylesheet was applied and the code highlighted.
    assert.ok(/(^|\s)0?\.811\d* 0?\.133\d* 0?\.180\d* rg/.test(content), 'the keyword colour (#cf222e) of highlighted code');
    assert.ok(/(^|\s)0?\.964\d* 0?\.972\d* 0?\.980\d* rg/.test(content), 'the table header background (#f6f8fa)');
  });

  await t.test('headings get ids, so options.outline makes nested bookmarks of them', async () => {
    const pdf = await pdfOf(await server.render({ markdown: README, options: { wait_until: 'load', outline: true } }));
    assert.deepEqual(await outlineTitles(pdf), [['Quire notes', ['Install', 'Usage']]]);
    assert.equal((await PDFDocument.load(pdf)).getTitle(), 'Quire notes', 'the first heading is the document title');
  });

  await t.test('raw HTML passes through, and the network guard keeps it away from a private address', async () => {
    const markdown = `# Raw\n\n<div class="raw">Inline <b>HTML</b> kept</div>\n\n<img src="${canary.url}/pixel.png">\n\n<iframe src="${canary.url}/frame"></iframe>\n`;
    const pdf = await pdfOf(await server.render({ markdown, options: { wait_until: 'load' } }));
    assert.match((await inspectPdf(pdf)).text, /Inline HTML kept/);
    assert.equal(canary.connections, 0, `the loopback canary was reached: ${canary.hits.join(', ')}`);
  });

  await t.test('options.css extends the default print stylesheet; css_mode "replace" leaves it out', async () => {
    const breakBeforeH2 = 'h2 { break-before: page; }';
    const extended = await inspectPdf(await pdfOf(await server.render({ markdown: README, options: { wait_until: 'load', css: breakBeforeH2 } })));
    assert.equal(extended.pages.length, 3, 'each h2 starts a page');
    assert.ok(
      extended.fonts.some((font) => font.name.startsWith('LiberationSans')),
      `the default sans-serif stays: ${extended.fonts.map((f) => f.name)}`,
    );
    const replaced = await inspectPdf(
      await pdfOf(await server.render({ markdown: README, options: { wait_until: 'load', css: breakBeforeH2, css_mode: 'replace' } })),
    );
    assert.equal(replaced.pages.length, 3, 'the caller’s css still applies');
    assert.ok(
      !replaced.fonts.some((font) => font.name.startsWith('LiberationSans-') || font.name === 'LiberationSans'),
      `without the default stylesheet the text is in the browser’s serif: ${replaced.fonts.map((f) => f.name)}`,
    );
  });

  await t.test('a Markdown template fills its placeholders first, values escaped as literal text, then becomes HTML', async () => {
    const created = await server.request('POST', '/v1/templates', {
      name: 'md letter',
      format: 'markdown',
      html: '# Hello {{name}}\n\n| Item | Price |\n|---|---|\n{{#items}}| {{label}} | {{price}} |\n{{/items}}\n\n{{{note}}}\n',
      sample_data: { name: 'Ada' },
    });
    assert.equal(created.status, 201);
    const template = (await created.json()) as { template_id: string; format: string };
    assert.equal(template.format, 'markdown');
    const data = {
      name: '*Ada* <b>Lovelace</b>',
      items: [
        { label: 'Pipe | inside', price: '1' },
        { label: '# not a heading', price: '2' },
      ],
      note: '**Raw markdown**',
    };
    const pdf = await pdfOf(await server.render({ template_id: template.template_id, data, options: { wait_until: 'load', outline: true } }));
    const { text } = await inspectPdf(pdf);
    assert.match(text, /Hello \*Ada\* <b>Lovelace<\/b>/, 'a value is literal text: no emphasis, no HTML');
    assert.match(text, /Pipe \| inside 1 # not a heading 2/, 'a | in a value stays inside its cell');
    assert.match(text, /Raw markdown/);
    assert.doesNotMatch(text, /\*\*Raw/, '{{{ }}} inserts Markdown that is then read as Markdown');
    assert.deepEqual(await outlineTitles(pdf), ['Hello *Ada* <b>Lovelace</b>']);
    const listed = (await (await server.request('GET', '/v1/templates')).json()) as { data: { template_id: string; format: string }[] };
    assert.equal(listed.data.find((entry) => entry.template_id === template.template_id)?.format, 'markdown');
    const versions = (await (await server.request('GET', `/v1/templates/${template.template_id}/versions`)).json()) as { data: { format: string }[] };
    assert.equal(versions.data[0]?.format, 'markdown');
    const preview = await server.admin('POST', '/admin/v1/templates/preview', {
      html: '# Preview {{who}}\n\n- [x] checked',
      format: 'markdown',
      data: { who: 'you' },
      options: { wait_until: 'load' },
    });
    const previewed = (await inspectPdf(await pdfOf(preview))).text;
    assert.match(previewed, /Preview you/);
    assert.doesNotMatch(previewed, /\[x\]/);
  });

  await t.test('a batch item, a merge source and an image may be Markdown', async () => {
    const batch = await server.request('POST', '/v1/pdf/batch', {
      requests: [{ markdown: '# Batch *item*', filename: 'item.pdf' }, { html: '<p>html item</p>' }],
      options: { wait_until: 'load' },
    });
    assert.equal(batch.status, 200);
    const result = (await batch.json()) as { results: { status: string; document_id: string }[] };
    assert.deepEqual(
      result.results.map((item) => item.status),
      ['succeeded', 'succeeded'],
    );
    const stored = await pdfOf(await server.request('GET', `/v1/documents/${result.results[0]!.document_id}`));
    assert.match((await inspectPdf(stored)).text, /Batch item/);

    const merged = await pdfOf(
      await server.request('POST', '/v1/pdf/merge', {
        sources: [
          { markdown: '# First part', options: { wait_until: 'load' } },
          { html: '<p>Second part</p>', options: { wait_until: 'load' } },
        ],
      }),
    );
    const pages = (await inspectPdf(merged)).pages;
    assert.deepEqual(
      pages.map((page) => page.text),
      ['First part', 'Second part'],
    );

    const image = await server.request('POST', '/v1/image', { markdown: '# Picture', options: { type: 'png', wait_until: 'load' } });
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');
    assert.deepEqual([...new Uint8Array(await image.arrayBuffer()).subarray(1, 4)], [0x50, 0x4e, 0x47]);
  });

  await t.test('the playground renders markdown without a key', async () => {
    const response = await server.requestWithoutKey('POST', '/v1/playground/pdf', { markdown: '# Playground **md**', options: { wait_until: 'load' } });
    assert.match((await inspectPdf(await pdfOf(response))).text, /Playground md/);
  });

  await t.test('the hot folder renders name.md dropped into in/', async () => {
    await writeFile(path.join(watchDir, 'settings.json'), JSON.stringify({ key_id: server.key.id }));
    await writeFile(path.join(watchDir, 'in', 'notes.md'), '# Hot *markdown*\n\n- [x] dropped\n');
    const out = path.join(watchDir, 'out', 'notes.pdf');
    await appears(out);
    const { text } = await inspectPdf(await readFile(out));
    assert.match(text, /Hot markdown/);
    assert.match(text, /dropped/);
  });

  await t.test('bad input is a 400 naming the problem, and nothing is charged', async () => {
    const before = await used(server);
    const cases: [unknown, number, string, RegExp][] = [
      [{ markdown: '# x', html: '<p>x</p>' }, 400, 'conflicting_source', /markdown/],
      [{ markdown: '# x', template_id: 'tpl_abcdef123' }, 400, 'conflicting_source', /markdown and template_id/],
      [{ markdown: 42 }, 400, 'invalid_request', /markdown/],
      [{ markdown: ['# x'] }, 400, 'invalid_request', /markdown/],
      [{ html: '<p>x</p>', options: { css: 'p{}' } }, 400, 'invalid_request', /options\.css.*markdown/],
      [{ markdown: '# x', options: { css_mode: 'merge' } }, 400, 'invalid_request', /options\.css_mode/],
      [{ markdown: '# x', options: { css: 7 } }, 400, 'invalid_request', /options\.css/],
    ];
    for (const [body, status, code, detail] of cases) {
      const error = await errorOf(await server.render(body));
      assert.deepEqual([error.status, error.code], [status, code], JSON.stringify(body));
      assert.match(error.detail, detail, JSON.stringify(body));
    }
    const html = (await (await server.request('POST', '/v1/templates', { name: 'plain', html: '<p>{{x}}</p>' })).json()) as { template_id: string };
    const misplaced = await errorOf(await server.render({ template_id: html.template_id, options: { css: 'p{}' } }));
    assert.deepEqual([misplaced.status, misplaced.code], [400, 'invalid_request']);
    assert.match(misplaced.detail, /options\.css is only for Markdown/);
    const tooLarge = await errorOf(await server.render({ markdown: `${'x'.repeat(5 * 1024 * 1024)}\n` }));
    assert.deepEqual([tooLarge.status, tooLarge.code], [413, 'payload_too_large']);
    const batchItem = await errorOf(await server.request('POST', '/v1/pdf/batch', { requests: [{ markdown: '# x', url: 'https://example.com' }] }));
    assert.deepEqual([batchItem.status, batchItem.code], [400, 'conflicting_source']);
    assert.match(batchItem.detail, /requests\[0\]/);
    assert.equal(await used(server), before);
  });
});
