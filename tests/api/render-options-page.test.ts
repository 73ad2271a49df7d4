// POST /v1/pdf page options against a real Chromium, asserted on the PDF itself: which pages,
// where the text sits, what is painted.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorOf, startTestServer, type TestServer } from '../helpers/start-app.ts';
import { layoutOf, runOf, type PageLayout } from '../helpers/pdf-layout.ts';
import { render } from '../helpers/render-options.ts';

const CM = 72 / 2.54;
/**
 * Chromium snaps margins and the page box to whole CSS pixels, so an edge may be off by a pixel
 * or two (up to 1.5 pt). Units still tell apart clearly: 1in and 1cm differ by 43 pt.
 */
const SNAP = 2;

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
