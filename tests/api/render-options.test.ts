// POST /v1/pdf options against a real Chromium, asserted on the PDF itself: which pages, where
// the text sits, what is painted, what the page had time to show. Also the response headers
// (filename, request id) and url renders against loopback fixture servers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorOf, startTestServer, type TestServer } from '../helpers/start-app.ts';
import { inspectPdf, type InspectedPdf } from '../helpers/pdf.ts';
import { layoutOf, runOf, type PageLayout } from '../helpers/pdf-layout.ts';
import { startFixtureServer } from '../helpers/fixture-server.ts';

const CM = 72 / 2.54;
/**
 * Chromium snaps margins and the page box to whole CSS pixels, so an edge may be off by a pixel
 * or two (up to 1.5 pt). Units still tell apart clearly: 1in and 1cm differ by 43 pt.
 */
const SNAP = 2;

async function pdfOf(response: Response): Promise<{ bytes: Uint8Array; pdf: InspectedPdf }> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, `expected a PDF, got ${response.status}: ${Buffer.from(bytes.subarray(0, 300)).toString()}`);
  assert.equal(response.headers.get('content-type'), 'application/pdf');
  return { bytes, pdf: await inspectPdf(bytes) };
}

async function render(server: TestServer, html: string, options: Record<string, unknown> = {}): Promise<{ bytes: Uint8Array; pdf: InspectedPdf }> {
  return pdfOf(await server.render({ html, options: { wait_until: 'load', ...options } }));
}

async function layout(server: TestServer, html: string, options: Record<string, unknown> = {}): Promise<PageLayout[]> {
  return layoutOf((await render(server, html, options)).bytes);
}

function near(actual: number, expected: number, what: string, tolerance = SNAP): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual.toFixed(2)} is not within ${tolerance} of ${expected.toFixed(2)}`);
}

/** One sheet per entry, each with its own text. */
function sheets(count: number): string {
  return Array.from({ length: count }, (_, i) => `<div style="break-after: page">Sheet ${i + 1}</div>`).join('');
}

/** A block of fixed size: 60 lines of 30 px, 1800 CSS px in all. */
const TALL_BLOCK =
  '<style>body { margin: 0 } p { margin: 0; font-size: 20px; line-height: 30px }</style>' +
  Array.from({ length: 60 }, (_, i) => `<p>Line ${i + 1}</p>`).join('');

/** LEFT at the left edge of the content box, RIGHT flush with its right edge. */
const EDGES = '<style>body { margin: 0 }</style><div>LEFT</div><div style="text-align: right">RIGHT</div>';

test('page options shape the printed document', { timeout: 120_000 }, async (t) => {
  const server = await startTestServer(t);

  await t.test('page_ranges keeps only the listed pages, in order', async () => {
    const { pdf } = await render(server, sheets(5), { page_ranges: '2-3, 5' });
    assert.deepEqual(
      pdf.pages.map((page) => page.text),
      ['Sheet 2', 'Sheet 3', 'Sheet 5'],
    );
  });

  await t.test('page_ranges with an open end keeps every page from there on', async () => {
    const { pdf } = await render(server, sheets(5), { page_ranges: '4-' });
    assert.deepEqual(
      pdf.pages.map((page) => page.text),
      ['Sheet 4', 'Sheet 5'],
    );
  });

  await t.test('page_ranges ignores spaces around pages and commas', async () => {
    const { pdf } = await render(server, sheets(5), { page_ranges: ' 1 , 3 - 4 ' });
    assert.deepEqual(
      pdf.pages.map((page) => page.text),
      ['Sheet 1', 'Sheet 3', 'Sheet 4'],
    );
  });

  await t.test('page_ranges that runs past the last page keeps the pages that exist', async () => {
    const { pdf } = await render(server, sheets(3), { page_ranges: '2-9' });
    assert.deepEqual(
      pdf.pages.map((page) => page.text),
      ['Sheet 2', 'Sheet 3'],
    );
  });

  await t.test('page_ranges naming only pages the document lacks answers 400 naming the field', async () => {
    const response = await server.render({ html: sheets(2), options: { page_ranges: '7', wait_until: 'load' } });
    const error = await errorOf(response);
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid_request');
    assert.match(error.detail, /options\.page_ranges/);
  });

  await t.test('without page_ranges every page is printed', async () => {
    const { pdf } = await render(server, sheets(4));
    assert.deepEqual(
      pdf.pages.map((page) => page.text),
      ['Sheet 1', 'Sheet 2', 'Sheet 3', 'Sheet 4'],
    );
  });

  await t.test('scale enlarges the text and a fixed block flows onto more pages', async () => {
    const counts: number[] = [];
    for (const scale of [0.5, 1, 2]) {
      const pages = await layout(server, TALL_BLOCK, { scale });
      near(runOf(pages, 'Line 1').size, 15 * scale, `font size at scale ${scale}`, 0.1);
      const text = pages.flatMap((page) => page.runs.map((run) => run.text)).join(' ');
      assert.match(text, /Line 60/, `the last line is printed at scale ${scale}`);
      counts.push(pages.length);
    }
    const [half, normal, double] = counts as [number, number, number];
    assert.ok(half < normal && normal < double, `pages at scale 0.5, 1, 2: ${counts.join(', ')}`);
  });

  await t.test('the default scale is 1', async () => {
    near(runOf(await layout(server, TALL_BLOCK), 'Line 1').size, 15, 'font size', 0.1);
  });

  await t.test('margin puts the content box at the same place in every absolute unit', async () => {
    for (const margin of ['1in', '2.54cm', '25.4mm', '72pt', '96px', '6pc', '101.6q', '1IN']) {
      const pages = await layout(server, EDGES, { margin });
      const left = runOf(pages, 'LEFT');
      const right = runOf(pages, 'RIGHT');
      const page = pages[0]!;
      near(left.x, 72, `left edge with margin ${margin}`);
      near(right.x + right.width, page.width - 72, `right edge with margin ${margin}`);
    }
  });

  await t.test('margin "0" prints from the very edge of the sheet', async () => {
    const pages = await layout(server, EDGES, { margin: '0' });
    near(runOf(pages, 'LEFT').x, 0, 'left edge');
    const right = runOf(pages, 'RIGHT');
    near(right.x + right.width, pages[0]!.width, 'right edge');
  });

  await t.test('a four-value margin sets top, right, bottom and left as in CSS', async () => {
    const flush = await layout(server, EDGES, { margin: '0' });
    const pages = await layout(server, EDGES, { margin: '1cm 2cm 3cm 4cm' });
    const page = pages[0]!;
    near(runOf(pages, 'LEFT').x, 4 * CM, 'left margin (4cm)');
    const right = runOf(pages, 'RIGHT');
    near(right.x + right.width, page.width - 2 * CM, 'right margin (2cm)');
    near(runOf(flush, 'LEFT').y - runOf(pages, 'LEFT').y, 1 * CM, 'top margin (1cm)');
    // The bottom margin: a long flow never prints inside the lowest 3cm of a sheet.
    const flow = await layout(server, TALL_BLOCK, { margin: '1cm 2cm 3cm 4cm' });
    assert.ok(flow.length > 1);
    const lowest = Math.min(...flow.flatMap((sheet) => sheet.runs.map((run) => run.y)));
    assert.ok(lowest >= 3 * CM, `lowest baseline ${lowest.toFixed(2)} is inside the 3cm bottom margin`);
    assert.ok(lowest < 3 * CM + 40, `lowest baseline ${lowest.toFixed(2)} shows the page is filled down to the bottom margin`);
  });

  await t.test('two- and three-value margins repeat sides as in CSS', async () => {
    const two = await layout(server, EDGES, { margin: '0 2in' });
    near(runOf(two, 'LEFT').x, 144, 'left of "0 2in"');
    const twoRight = runOf(two, 'RIGHT');
    near(twoRight.x + twoRight.width, two[0]!.width - 144, 'right of "0 2in"');
    const three = await layout(server, EDGES, { margin: '0 1in 5cm' });
    near(runOf(three, 'LEFT').x, 72, 'left of "0 1in 5cm" (same as right)');
  });

  await t.test('a bigger margin makes a fixed block flow onto more pages', async () => {
    const small = await layout(server, TALL_BLOCK, { margin: '0' });
    const large = await layout(server, TALL_BLOCK, { margin: '8cm' });
    assert.ok(large.length > small.length, `pages with margin 0: ${small.length}, with 8cm: ${large.length}`);
  });

  await t.test('a margin that only fits the sheet turned sideways prints in landscape', async () => {
    const pages = await layout(server, EDGES, { format: 'Letter', landscape: true, margin: '0 5in' });
    near(runOf(pages, 'LEFT').x, 360, 'left edge');
  });

  const colourful = '<body style="background: #ff0000"><p style="background: #00ff00">colour</p></body>';

  await t.test('print_background true paints background colours', async () => {
    const [page] = await layout(server, colourful, { print_background: true });
    assert.ok(page!.fills.has('#ff0000'), `page fills: ${[...page!.fills].join(' ')}`);
    assert.ok(page!.fills.has('#00ff00'), `page fills: ${[...page!.fills].join(' ')}`);
  });

  await t.test('print_background false leaves background colours out but keeps the text', async () => {
    const pages = await layout(server, colourful, { print_background: false });
    assert.ok(!pages[0]!.fills.has('#ff0000'), `page fills: ${[...pages[0]!.fills].join(' ')}`);
    assert.ok(!pages[0]!.fills.has('#00ff00'), `page fills: ${[...pages[0]!.fills].join(' ')}`);
    runOf(pages, 'colour');
  });

  await t.test('backgrounds are printed by default', async () => {
    const [page] = await layout(server, colourful);
    assert.ok(page!.fills.has('#ff0000'));
  });

  const mediaPage =
    '<style>@media print { .screen { display: none } } @media screen { .print { display: none } }</style>' +
    '<p class="print">Shown in print</p><p class="screen">Shown on screen</p>';

  await t.test('media print applies @media print rules', async () => {
    const { pdf } = await render(server, mediaPage, { media: 'print' });
    assert.equal(pdf.text, 'Shown in print');
  });

  await t.test('media screen applies @media screen rules', async () => {
    const { pdf } = await render(server, mediaPage, { media: 'screen' });
    assert.equal(pdf.text, 'Shown on screen');
  });

  await t.test('media defaults to print', async () => {
    const { pdf } = await render(server, mediaPage);
    assert.equal(pdf.text, 'Shown in print');
  });

  const cssSized = '<style>@page { size: 100mm 150mm }</style><p>CSS sized</p>';

  await t.test('prefer_css_page_size true takes the page size from @page', async () => {
    const { pdf } = await render(server, cssSized, { prefer_css_page_size: true });
    near(pdf.pages[0]!.width, 100 * (72 / 25.4), 'width (100mm)');
    near(pdf.pages[0]!.height, 150 * (72 / 25.4), 'height (150mm)');
    assert.match(pdf.text, /CSS sized/);
  });

  await t.test('prefer_css_page_size true honours a named @page size in landscape', async () => {
    const { pdf } = await render(server, '<style>@page { size: A5 landscape }</style><p>A5</p>', { prefer_css_page_size: true, format: 'Letter' });
    near(pdf.pages[0]!.width, 595.28, 'width (A5 landscape)');
    near(pdf.pages[0]!.height, 419.53, 'height (A5 landscape)');
  });

  await t.test('prefer_css_page_size false keeps the requested format over @page', async () => {
    const { pdf } = await render(server, cssSized, { format: 'Letter' });
    near(pdf.pages[0]!.width, 612, 'width (Letter)');
    near(pdf.pages[0]!.height, 792, 'height (Letter)');
    assert.match(pdf.text, /CSS sized/);
  });

  const footer =
    '<div style="font-size: 10px; width: 100%; text-align: center">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>';
  const titled = `<title>Quarterly report</title>${sheets(3)}`;

  await t.test('footer_template numbers every page "Page n of total"', async () => {
    const { pdf } = await render(server, titled, { footer_template: footer });
    assert.equal(pdf.pages.length, 3);
    for (const [index, page] of pdf.pages.entries()) assert.equal(page.text, `Sheet ${index + 1} Page ${index + 1} of 3`);
  });

  await t.test('header_template fills in the title on every page, with the footer', async () => {
    const header = '<div style="font-size: 10px">Header: <span class="title"></span></div>';
    const { pdf } = await render(server, titled, { header_template: header, footer_template: footer });
    pdf.pages.forEach((page, index) => {
      assert.match(page.text, /Header: Quarterly report/, `page ${index + 1}: ${page.text}`);
      assert.match(page.text, new RegExp(`Page ${index + 1} of 3`), `page ${index + 1}: ${page.text}`);
    });
  });

  await t.test("a footer alone does not bring in Chromium's default header", async () => {
    const { pdf } = await render(server, titled, { footer_template: footer });
    assert.doesNotMatch(pdf.text, /Quarterly report/);
  });

  await t.test('without header or footer templates nothing is added to the pages', async () => {
    const { pdf } = await render(server, titled);
    assert.deepEqual(
      pdf.pages.map((page) => page.text),
      ['Sheet 1', 'Sheet 2', 'Sheet 3'],
    );
  });
});

/** A page whose script adds "Late node" as #late after `delay` ms. */
function lateNode(delay: number): string {
  return `<p>Early node</p><script>setTimeout(() => { const node = document.createElement('p'); node.id = 'late'; node.textContent = 'Late node'; document.body.append(node); }, ${delay});</script>`;
}

test('waits and the time budget decide what the page had time to show', { timeout: 120_000 }, async (t) => {
  // Pages that never settle: one whose image never arrives (no load event), one that polls for ever (never network-idle).
  const slow = await startFixtureServer({
    '/hang': () => undefined,
    '/tick': (_req, res) => void res.writeHead(204).end(),
    '/stuck': '<p>stuck</p><img src="/hang">',
    '/busy': "<p>busy</p><script>setInterval(() => fetch('/tick').catch(() => {}), 100);</script>",
  });
  t.after(() => slow.close());
  const server = await startTestServer(t, { allowHosts: [`127.0.0.1:${slow.port}`] });

  await t.test('wait_for waits for a node that a script inserts late', async () => {
    const { pdf } = await render(server, lateNode(300), { wait_for: '#late' });
    assert.match(pdf.text, /Early node/);
    assert.match(pdf.text, /Late node/);
  });

  await t.test('wait_ms lets a timer-inserted node appear', async () => {
    const { pdf } = await render(server, lateNode(300), { wait_ms: 1500 });
    assert.match(pdf.text, /Late node/);
  });

  await t.test('without a wait the page is printed before a slow timer fires', async () => {
    // The whole render must end within timeout_ms (5 s): a node due after 10 s cannot be there.
    const { pdf } = await render(server, lateNode(10_000), { timeout_ms: 5000 });
    assert.match(pdf.text, /Early node/);
    assert.doesNotMatch(pdf.text, /Late node/);
  });

  await t.test('a wait_for selector that never appears answers 504 render_timeout', async () => {
    const response = await server.render({ html: '<p>nothing to wait for</p>', options: { wait_for: '#never', timeout_ms: 1000, wait_until: 'load' } });
    const error = await errorOf(response);
    assert.equal(error.status, 504);
    assert.equal(error.code, 'render_timeout');
    assert.match(error.detail, /timeout_ms/);
    assert.ok(response.headers.get('x-request-id'));
  });

  await t.test('a page whose load never finishes answers 504 render_timeout', async () => {
    const error = await errorOf(await server.render({ url: `${slow.url}/stuck`, options: { timeout_ms: 1000, wait_until: 'load' } }));
    assert.equal(error.status, 504);
    assert.equal(error.code, 'render_timeout');
    assert.match(error.detail, /1000 ms/);
  });

  await t.test('a page that never goes network-idle answers 504 render_timeout under networkidle0', async () => {
    const error = await errorOf(await server.render({ url: `${slow.url}/busy`, options: { timeout_ms: 1500, wait_until: 'networkidle0' } }));
    assert.equal(error.status, 504);
    assert.equal(error.code, 'render_timeout');
    // The same page is fine when the load event is enough.
    const { pdf } = await pdfOf(await server.render({ url: `${slow.url}/busy`, options: { timeout_ms: 5000, wait_until: 'load' } }));
    assert.equal(pdf.text, 'busy');
  });

  await t.test('a script that never yields answers 504 render_timeout', async () => {
    const error = await errorOf(await server.render({ html: '<p>spin</p><script>for (;;) {}</script>', options: { timeout_ms: 1000, wait_until: 'load' } }));
    assert.equal(error.status, 504);
    assert.equal(error.code, 'render_timeout');
  });

  await t.test('renders work again after timeouts', async () => {
    const { pdf } = await render(server, '<p>after the timeouts</p>');
    assert.equal(pdf.text, 'after the timeouts');
  });

  await t.test('an invalid wait_for selector answers 400 naming options.wait_for', async () => {
    const error = await errorOf(await server.render({ html: '<p>x</p>', options: { wait_for: 'p[', timeout_ms: 1000, wait_until: 'load' } }));
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid_request');
    assert.match(error.detail, /options\.wait_for/);
  });
});

/** Parses the filename*=UTF-8''... part of a Content-Disposition header. */
function extendedFilename(header: string): string | undefined {
  const match = /filename\*=UTF-8''([^;\s]+)/i.exec(header);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

function quotedFilename(header: string): string | undefined {
  return /filename="((?:[^"\\]|\\.)*)"/.exec(header)?.[1];
}

test('responses carry the filename and the request id', { timeout: 60_000 }, async (t) => {
  const server = await startTestServer(t);
  const html = '<p>named</p>';

  await t.test('filename sets an inline Content-Disposition, quoted and RFC 5987 encoded', async () => {
    const response = await server.render({ html, filename: 'report-2024.pdf', options: { wait_until: 'load' } });
    await pdfOf(response);
    assert.equal(response.headers.get('content-disposition'), `inline; filename="report-2024.pdf"; filename*=UTF-8''report-2024.pdf`);
  });

  await t.test('a non-ASCII filename gets an ASCII fallback and an exact UTF-8 filename*', async () => {
    const name = 'Résumé – 東京 2024.pdf';
    const response = await server.render({ html, filename: name, options: { wait_until: 'load' } });
    await pdfOf(response);
    const header = response.headers.get('content-disposition') ?? '';
    assert.match(header, /^inline; /);
    assert.match(header, /^[\x20-\x7e]+$/, 'the header is plain ASCII');
    assert.equal(extendedFilename(header), name);
    const fallback = quotedFilename(header);
    assert.ok(fallback, `no quoted filename in ${header}`);
    assert.match(fallback, /^R.sum. . .. 2024\.pdf$/);
  });

  await t.test('quotes, semicolons and RFC 5987 specials in a filename cannot break the header', async () => {
    const name = `say "hi"; it's (really) 100% *done*.pdf`;
    const response = await server.render({ html, filename: name, options: { wait_until: 'load' } });
    await pdfOf(response);
    const header = response.headers.get('content-disposition') ?? '';
    assert.equal(extendedFilename(header), name);
    assert.doesNotMatch(quotedFilename(header) ?? '"', /"/);
    // Exactly two parameters after the type: the quoted name and the encoded one.
    assert.equal(header.replace(/"[^"]*"/g, '""').split(';').length, 3, header);
  });

  await t.test('every response carries an X-Request-Id, each one different', async () => {
    const responses = [
      await server.render({ html, options: { wait_until: 'load' } }),
      await server.render({ html: '<p>x</p>', options: { scale: 9 } }),
      await server.request('GET', '/health'),
      await server.request('GET', '/no/such/route'),
      await server.request('GET', '/v1/pdf'),
    ];
    const ids = responses.map((response) => response.headers.get('x-request-id'));
    for (const [index, id] of ids.entries()) assert.ok(id && id.length >= 8, `response ${index} (${responses[index]!.status}) has no request id`);
    assert.equal(new Set(ids).size, ids.length, `request ids repeat: ${ids.join(', ')}`);
    await Promise.all(responses.map((response) => response.arrayBuffer()));
  });

  await t.test("the caller's X-Request-Id is echoed on success and on error", async () => {
    const ok = await server.render({ html, options: { wait_until: 'load' } }, { 'X-Request-Id': 'order-4711.render@client:1' });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('x-request-id'), 'order-4711.render@client:1');
    await ok.arrayBuffer();
    const bad = await server.render({ html, options: { scale: 9 } }, { 'X-Request-Id': 'order-4712' });
    assert.equal(bad.status, 400);
    assert.equal(bad.headers.get('x-request-id'), 'order-4712');
    await bad.arrayBuffer();
  });

  await t.test('an X-Request-Id that is not a sane token is replaced, not echoed', async () => {
    for (const sent of ['has spaces in it', 'x'.repeat(300), '<script>']) {
      const response = await server.request('GET', '/health', undefined, { 'X-Request-Id': sent });
      const id = response.headers.get('x-request-id');
      assert.ok(id, 'a request id is still sent');
      assert.notEqual(id, sent);
      await response.arrayBuffer();
    }
  });
});

/** A loopback port that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('url renders load allowed fixture pages and report what went wrong', { timeout: 60_000 }, async (t) => {
  const fixture = await startFixtureServer({
    '/page': '<title>Fixture</title><h1>From the fixture server</h1><p>Second line</p>',
    '/styled': '<link rel="stylesheet" href="/style.css"><p class="hidden">Hidden by CSS</p><p>Visible</p>',
    '/style.css': (_req, res) => void res.writeHead(200, { 'content-type': 'text/css' }).end('.hidden { display: none }'),
    '/moved': (_req, res) => void res.writeHead(302, { location: '/page' }).end(),
    '/gone': (_req, res) => void res.writeHead(410, { 'content-type': 'text/html' }).end('<p>gone</p>'),
    '/broken': (_req, res) => void res.writeHead(500, { 'content-type': 'text/html' }).end('<p>server error</p>'),
  });
  t.after(() => fixture.close());
  const unreachable = await closedPort();
  const notAllowed = await closedPort();
  const server = await startTestServer(t, { allowHosts: [`127.0.0.1:${fixture.port}`, `127.0.0.1:${unreachable}`] });
  const renderUrl = (url: string) => server.render({ url, options: { wait_until: 'load', timeout_ms: 10_000 } });

  await t.test('a url render of an allowed fixture page has its text in the PDF', async () => {
    const { pdf } = await pdfOf(await renderUrl(`${fixture.url}/page`));
    assert.equal(pdf.pages.length, 1);
    assert.equal(pdf.text, 'From the fixture server Second line');
  });

  await t.test("a url render loads the page's stylesheet from its origin", async () => {
    const { pdf } = await pdfOf(await renderUrl(`${fixture.url}/styled`));
    assert.equal(pdf.text, 'Visible');
    assert.ok(fixture.hits.includes('GET /style.css'));
  });

  await t.test('a url render follows a redirect within the allowed host', async () => {
    const { pdf } = await pdfOf(await renderUrl(`${fixture.url}/moved`));
    assert.match(pdf.text, /From the fixture server/);
  });

  for (const [path, status] of [
    ['/missing', 404],
    ['/gone', 410],
    ['/broken', 500],
  ] as const) {
    await t.test(`a url answering ${status} gives 422 navigation_failed`, async () => {
      const error = await errorOf(await renderUrl(`${fixture.url}${path}`));
      assert.equal(error.status, 422);
      assert.equal(error.code, 'navigation_failed');
      assert.match(error.detail, new RegExp(String(status)));
    });
  }

  await t.test('an unreachable url gives 422 navigation_failed', async () => {
    const error = await errorOf(await renderUrl(`http://127.0.0.1:${unreachable}/`));
    assert.equal(error.status, 422);
    assert.equal(error.code, 'navigation_failed');
    assert.match(error.detail, /url/);
  });

  await t.test('ALLOW_HOSTS opens only the ports it names', async () => {
    const error = await errorOf(await renderUrl(`http://127.0.0.1:${notAllowed}/`));
    assert.equal(error.status, 400);
    assert.equal(error.code, 'url_blocked');
  });

  await t.test('a redirect of the url to a blocked address answers 400 url_blocked', async () => {
    const canary = await startFixtureServer({ '/': '<p>canary</p>' });
    t.after(() => canary.close());
    const redirector = await startFixtureServer({ '/': (_req, res) => void res.writeHead(302, { location: `${canary.url}/` }).end() });
    t.after(() => redirector.close());
    const guarded = await startTestServer(t, { allowHosts: [`127.0.0.1:${redirector.port}`] });
    const response = await guarded.render({ url: `${redirector.url}/`, options: { wait_until: 'load' } });
    assert.deepEqual(canary.hits, [], 'the blocked address was reached');
    assert.equal(response.status, 400);
    assert.equal((await errorOf(response)).code, 'url_blocked');
  });
});
