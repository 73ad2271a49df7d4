// options.header and options.footer against a real Chromium, read back from the PDF: an asset
// logo on every page, variants (first, last, odd, even, none), page variables and data, Chromium's
// classes, sections across a 20-page report, page X of Y across a merge, CJK and Arabic text, the
// room made in the margins, every way in (template, html, url, markdown, batch, merge, playground,
// admin preview), and the 400s for what cannot be drawn.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCanvas } from '@napi-rs/canvas';
import { errorOf, startTestServer, type TestServer } from '../helpers/start-app.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { imagesOf, layoutOf, type PageLayout, type TextRun } from '../helpers/pdf-layout.ts';
import { startFixtureServer } from '../helpers/fixture-server.ts';
import { openSansFromSparticuz } from '../helpers/open-sans.ts';

const CM = 72 / 2.54;
const A4 = { width: 595.28, height: 841.89 };
const LOAD = { wait_until: 'load' };
/** Chromium snaps the page box and margins to whole CSS pixels. */
const SNAP = 2;

async function pdfOf(response: Response): Promise<Uint8Array> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, `expected a PDF, got ${response.status}: ${Buffer.from(bytes.subarray(0, 400)).toString()}`);
  return bytes;
}

function sheets(count: number, label = 'Sheet'): string {
  return `<style>body{margin:0;font:14px Arial}</style>${Array.from({ length: count }, (_, i) => `<div style="break-after:page">${label} ${i + 1}</div>`).join('')}`;
}

function logoPng(): Uint8Array {
  const canvas = createCanvas(80, 40);
  const context = canvas.getContext('2d');
  context.fillStyle = '#1a5fb4';
  context.fillRect(0, 0, 80, 40);
  return new Uint8Array(canvas.toBuffer('image/png'));
}

/** The text drawn above `y` (header) or below it (footer) on a page, joined. */
function textIn(page: PageLayout, zone: 'above' | 'below', y: number): string {
  return page.runs
    .filter((run) => (zone === 'above' ? run.y > y : run.y < y))
    .map((run) => run.text)
    .join(' ')
    .trim();
}

function runWith(page: PageLayout, text: string): TextRun {
  const run = page.runs.find((candidate) => candidate.text.includes(text));
  assert.ok(run, `no run with "${text}" among ${page.runs.map((r) => r.text).join(' | ')}`);
  return run;
}

function near(actual: number, expected: number, what: string, tolerance = SNAP): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual.toFixed(2)} is not within ${tolerance} of ${expected.toFixed(2)}`);
}

async function createTemplate(server: TestServer, html: string): Promise<string> {
  const response = await server.request('POST', '/v1/templates', { name: 'report', html });
  assert.equal(response.status, 201, await response.clone().text());
  return ((await response.json()) as { template_id: string }).template_id;
}

test('headers and footers drawn on the printed pages', { timeout: 240_000 }, async (t) => {
  const brandFont = await openSansFromSparticuz();
  const site = await startFixtureServer({
    '/page':
      '<title>Remote page</title><style>@font-face{font-family:Brand;src:url(/brand.ttf)}@font-face{font-family:Gone;src:url(/gone.woff2)}body{font-family:Brand}</style><p>Remote body</p>',
    '/brand.ttf': (_req, res) => void res.writeHead(200, { 'content-type': 'font/ttf' }).end(brandFont),
    '/logo.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from(logoPng())),
  });
  t.after(() => site.close());
  const server = await startTestServer(t, { allowHosts: [`127.0.0.1:${site.port}`] });

  await t.test('a template: asset logo on every page, data, Chromium classes, first/last/odd/even variants, room made', async () => {
    const id = await createTemplate(server, `<title>Quarterly</title>${sheets(4)}`);
    const logo = await fetch(`${server.url}/v1/templates/${id}/assets/logo.png`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${server.key.key}`, 'content-type': 'image/png' },
      body: new Blob([logoPng() as Uint8Array<ArrayBuffer>]),
    });
    assert.ok(logo.ok, await logo.text());
    const bytes = await pdfOf(
      await server.render({
        template_id: id,
        data: { customer: { name: 'ACME & Co' } },
        options: {
          ...LOAD,
          header: {
            html: '<img src="logo.png" style="height:30px;vertical-align:middle"> {{customer.name}} p<span class="pageNumber"></span>/<span class="totalPages"></span> {{title}}',
            first: '<img src="logo.png" style="height:30px;vertical-align:middle"> Cover for {{customer.name}}',
          },
          footer: {
            odd: '<div style="text-align:right">odd {{page}}</div>',
            even: '<div style="text-align:left">even {{page}}</div>',
            last: '<div style="text-align:center">The end, {{pages}} pages</div>',
          },
        },
      }),
    );
    const pages = await layoutOf(bytes);
    assert.equal(pages.length, 4);
    const headerTop = A4.height - CM;
    const images = await imagesOf(bytes);
    images.forEach((placements, index) => {
      assert.equal(placements.length, 1, `page ${index + 1} draws the logo once`);
      const image = placements[0]!;
      near(image.height, 22.5, `page ${index + 1} logo height (30px)`, 0.5);
      assert.ok(image.y + image.height <= headerTop + 0.5 && image.y >= headerTop - 40, `page ${index + 1} logo sits in the header box (y ${image.y})`);
      near(image.x, CM, `page ${index + 1} logo at the left margin`);
    });
    const header = (index: number) => textIn(pages[index]!, 'above', headerTop - 40);
    assert.match(header(0), /Cover for ACME & Co/);
    assert.doesNotMatch(header(0), /p1\/4/);
    for (const index of [1, 2, 3]) assert.match(header(index), new RegExp(`ACME & Co p${index + 1}/4 Quarterly`));
    // Footers: odd pages right-aligned, even left-aligned, the last page its own.
    const right = A4.width - CM;
    const odd1 = runWith(pages[0]!, 'odd 1');
    near(odd1.x + odd1.width, right, 'odd footer ends at the right margin');
    near(runWith(pages[1]!, 'even 2').x, CM, 'even footer starts at the left margin');
    const odd3 = runWith(pages[2]!, 'odd 3');
    near(odd3.x + odd3.width, right, 'odd footer on page 3');
    const end = runWith(pages[3]!, 'The end, 4 pages');
    near(end.x + end.width / 2, A4.width / 2, 'the last page footer is centred', 3);
    assert.ok(!pages[3]!.runs.some((run) => /even 4/.test(run.text)), 'last wins over even');
    assert.ok(end.y < CM + 15, 'the footer sits in the bottom margin area');
    // The body starts below the header box (room made), not under it.
    // The first line box (14px Arial, line-height normal) starts at the bottom of the 30px box: its
    // baseline is 12.9px (9.7pt) lower.
    const body = runWith(pages[0]!, 'Sheet 1');
    near(body.y, headerTop - 22.5 - 9.7, 'the body starts right below the header box', 1.5);
  });

  await t.test('section titles follow the chapters of a 20-page report; a cover page has none', async () => {
    const chapters = [2, 1, 1, 3, 1, 1, 2, 1, 1, 1, 2, 1, 1, 1];
    let html = '<style>body{margin:0;font:14px Arial} h2{font-size:20px}</style><h1>Annual report</h1><p>cover</p>';
    const expected: string[] = [''];
    chapters.forEach((length, index) => {
      html += `<h2 style="break-before:page">Chapter ${index + 1}</h2><p>Opening of chapter ${index + 1}</p>`;
      for (let page = 1; page < length; page++) html += `<p style="break-before:page">chapter ${index + 1} continued</p>`;
      for (let page = 0; page < length; page++) expected.push(`Chapter ${index + 1}`);
    });
    assert.equal(expected.length, 20);
    const bytes = await pdfOf(
      await server.render({ html, options: { ...LOAD, header: { html: '<div>§ {{section}}</div>', first: false }, footer: 'Page {{page}} of {{pages}}' } }),
    );
    const pages = await layoutOf(bytes);
    assert.equal(pages.length, 20);
    pages.forEach((page, index) => {
      const header = textIn(page, 'above', A4.height - CM - 20);
      assert.equal(header, index === 0 ? '' : `§ ${expected[index]}`, `page ${index + 1}`);
      assert.equal(textIn(page, 'below', CM + 20), `Page ${index + 1} of 20`);
    });
    // The markers that found the sections are gone: no link annotations left.
    assert.doesNotMatch(Buffer.from(bytes).toString('latin1'), /quire\.invalid|\/Annots/);
  });

  await t.test('page X of Y across a 3-document merge, with each document its own count', async () => {
    const response = await server.request('POST', '/v1/pdf/merge', {
      sources: [
        { html: sheets(2, 'Alpha'), options: LOAD },
        { html: sheets(3, 'Beta'), options: LOAD },
        { html: sheets(1, 'Gamma'), options: { ...LOAD, footer: 'Gamma own footer {{page}}/{{pages}}' } },
      ],
      options: { footer: 'Page {{page}} of {{pages}} (document page {{document_page}} of {{document_pages}})' },
    });
    const pages = await layoutOf(await pdfOf(response));
    assert.deepEqual(
      pages.map((page) => textIn(page, 'below', CM + 20)),
      [
        'Page 1 of 6 (document page 1 of 2)',
        'Page 2 of 6 (document page 2 of 2)',
        'Page 3 of 6 (document page 1 of 3)',
        'Page 4 of 6 (document page 2 of 3)',
        'Page 5 of 6 (document page 3 of 3)',
        'Gamma own footer 6/6',
      ],
    );
  });

  await t.test('CJK and Arabic text in a header stays text; data-section marks the section', async () => {
    const html = '<style>body{margin:0}</style><h1>Not this heading</h1><div data-section="第一章 概述">正文</div>';
    const bytes = await pdfOf(
      await server.render({ html, options: { ...LOAD, header: '<div>页眉 {{section}} · <span dir="rtl">مرحبا بالعالم</span></div>' } }),
    );
    const { pages, fonts } = await inspectPdf(bytes);
    assert.match(pages[0]!.text, /页眉 第一章 概述/);
    // pdf.js hands Arabic back as presentation forms, one run per letter.
    assert.match(pages[0]!.text.replace(/\s+/g, ''), /[\u0600-\u06ff\ufe70-\ufeff]{10,}/, 'Arabic letters are extracted as text');
    assert.ok(
      fonts.some((font) => /WenQuanYi/i.test(font.name)),
      `a CJK font is embedded: ${fonts.map((f) => f.name).join(', ')}`,
    );
  });

  await t.test('a batch, the playground, the admin preview and a markdown source draw them too', async () => {
    const markdown = await server.render({ markdown: '# Notes\n\nWritten in *markdown*.', options: { ...LOAD, footer: 'md {{page}}/{{pages}} {{section}}' } });
    assert.match((await inspectPdf(await pdfOf(markdown))).text, /md 1\/1 Notes/);
    const batch = await server.request('POST', '/v1/pdf/batch', { requests: [{ html: sheets(2) }], options: { ...LOAD, footer: 'batch {{page}}/{{pages}}' } });
    assert.equal(batch.status, 200, await batch.clone().text());
    const { results } = (await batch.json()) as { results: { document_id: string }[] };
    const stored = await layoutOf(await pdfOf(await server.request('GET', `/v1/documents/${results[0]!.document_id}`)));
    assert.deepEqual(
      stored.map((page) => textIn(page, 'below', CM + 20)),
      ['batch 1/2', 'batch 2/2'],
    );
    const playground = await server.requestWithoutKey('POST', '/v1/playground/pdf', { html: sheets(1), options: { ...LOAD, header: 'playground {{page}}' } });
    assert.match((await inspectPdf(await pdfOf(playground))).text, /playground 1/);
    const preview = await server.admin('POST', '/admin/v1/templates/preview', {
      html: sheets(1),
      data: { who: 'Ada' },
      options: { ...LOAD, header: 'preview for {{who}}' },
    });
    assert.match((await inspectPdf(await pdfOf(preview))).text, /preview for Ada/);
  });

  await t.test("a url render: the header uses the page's @font-face font and an image by URL", async () => {
    const bytes = await pdfOf(
      await server.render({
        url: `http://127.0.0.1:${site.port}/page`,
        options: {
          ...LOAD,
          header: `<img src="http://127.0.0.1:${site.port}/logo.png" style="height:20px"> <span style="font-family:Brand">{{title}} header</span> <span style="font-family:Gone">fallback</span>`,
        },
      }),
    );
    const { pages, fonts } = await inspectPdf(bytes);
    assert.match(pages[0]!.text, /Remote page header/);
    // A font that fails to load (404) falls back, as in the body: the render goes on.
    assert.match(pages[0]!.text, /fallback/);
    assert.ok(
      fonts.filter((font) => /OpenSans/i.test(font.name)).length >= 2,
      `the page's font is embedded for the body and for the header: ${fonts.map((f) => f.name).join(', ')}`,
    );
    assert.equal((await imagesOf(bytes))[0]!.length, 1, 'the logo by URL is drawn');
  });

  await t.test('what cannot be drawn is a 400 naming the field', async () => {
    const refused = async (options: Record<string, unknown>, field: RegExp) => {
      const error = await errorOf(await server.render({ html: '<p>x</p>', options: { ...LOAD, ...options } }));
      assert.equal(error.code, 'invalid_request', JSON.stringify(error));
      assert.match(error.detail, field);
    };
    await refused({ header: { html: 'x', height: '40cm' } }, /options\.header\.height/);
    await refused({ header: { first: 'Cover' } }, /options\.header\.first/);
    await refused({ header: 'x', header_template: '<span></span>' }, /options\.header\b/);
    await refused({ header: { html: '{{#open}}' } }, /options\.header\.html/);
    const bigImage = `<img src="data:image/png;base64,${'A'.repeat(2_900_000)}">`;
    await refused({ header: bigImage }, /options\.header.*2 MB/);
    // Measured in the page: content taller than the sheet.
    await refused({ header: '<div style="height:1200px">tall</div>' }, /options\.header is 1200px tall/);
  });
});
