// The pure parts of options.header / options.footer: which variant a page takes, the sections per
// page, Chromium's classes, the request checks, and the page count read from a Chromium PDF.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { htmlForPage, normalizeRunning } from '../../../server/src/render/header-options.ts';
import { sectionsByPage, buildOverlay } from '../../../server/src/render/header-overlay.ts';
import { expandRunning } from '../../../server/src/render/header-variables.ts';
import { headsOf, usesSections } from '../../../server/src/render/header-plan.ts';
import { requestOptionsSchema } from '../../../server/src/http/schemas/render.ts';
import { countPages } from '../../../server/src/pdf/page-count.ts';
import { PDFDocument } from '@cantoo/pdf-lib';

const VARS = { page: 3, pages: 9, document_page: 1, document_pages: 2, section: 'Intro & more', title: 'T', date: '2026-01-02' };

test('a page takes first, then last, then odd/even, then the default; false draws nothing', () => {
  const running = normalizeRunning({ html: 'D', first: false, last: 'L', even: 'E' })!;
  assert.deepEqual(
    [1, 2, 3, 4, 5].map((page) => htmlForPage(running, page, 5)),
    [undefined, 'E', 'D', 'E', 'L'],
  );
  assert.equal(htmlForPage(normalizeRunning('only')!, 1, 1), 'only');
  // A single page is the first page.
  assert.equal(htmlForPage(normalizeRunning({ html: 'D', first: 'F', last: 'L' })!, 1, 1), 'F');
});

test('a page shows the first section starting on it, else the one carried from before', () => {
  assert.deepEqual(sectionsByPage(['A', 'B', 'C', 'D'], [1, 1, 3, -1], 5), ['', 'A', 'B', 'C', 'C']);
});

test('placeholders take data and page variables; page variables win; Chromium classes fill empty elements only', () => {
  const html = '{{customer}} {{page}}/{{pages}} {{section}} <span class="pageNumber"></span> <b class=\'x totalPages\'> </b> <div class="title">kept</div>';
  assert.equal(
    expandRunning(html, { customer: 'Ada', page: 'not this' }, VARS, 'options.header'),
    'Ada 3/9 Intro &amp; more <span class="pageNumber">3</span> <b class=\'x totalPages\'>9</b> <div class="title">kept</div>',
  );
});

test('only headers that use section ask the body for markers; no header, no pass', () => {
  assert.equal(headsOf({}), undefined);
  assert.equal(usesSections(headsOf({ header: 'Page {{page}}' })!), false);
  assert.equal(usesSections(headsOf({ footer: { html: 'x', last: '{{section}}' } })!), true);
});

test('identical instances are printed once; inlined images are served, not repeated', () => {
  const image = `data:image/png;base64,${Buffer.from('png bytes').toString('base64')}`;
  const overlay = buildOverlay({
    heads: { header: { html: `<img src="${image}">` }, footer: { html: '{{page}}' } },
    facts: { heights: { header: 20, footer: 10 }, title: '', fontFaces: [], sections: [] },
    geometry: { paperHeight: 1123, margins: { top: 10, right: 10, bottom: 10, left: 10 }, boxWidth: 774 },
    markers: [],
    numbering: { pageNumbers: [1, 2, 3], total: 3 },
    data: {},
    date: '2026-01-02',
  });
  assert.deepEqual(overlay.plan.pages, [
    { header: 0, footer: 1 },
    { header: 0, footer: 2 },
    { header: 0, footer: 3 },
  ]);
  assert.equal(overlay.inline.size, 1);
  assert.doesNotMatch(overlay.html, /base64/);
  assert.equal(overlay.plan.header!.edge, 7.5);
});

test('requests: a variant without a default, a box taller than the page, and both kinds of header are refused by field', () => {
  const issue = (options: unknown) => {
    const result = requestOptionsSchema.safeParse(options);
    return result.success ? undefined : result.error.issues[0]!.path.join('.');
  };
  assert.equal(issue({ header: { first: 'x' } }), 'header.first');
  assert.equal(issue({ header: { odd: 'o', even: 'e' } }), undefined);
  assert.equal(issue({ footer: { html: 'x', height: '30cm' } }), 'footer.height');
  assert.equal(issue({ header: 'x', header_template: 'y' }), 'header');
  assert.equal(issue({ header: { html: 'x', height: '1em' } }), 'header.height');
  assert.equal(issue({ footer: { html: '{{/x}}' } }), 'footer.html');
});

test('the page count of a Chromium PDF is read without parsing it; another layout is left to the parser', () => {
  const skia = Buffer.from('%PDF-1.4\n10 0 obj\n<</Type /Pages /Count 7 /Kids [2 0 R]>>\nendobj\n11 0 obj\n<</Type /Catalog /Pages 10 0 R>>\nendobj\n');
  assert.equal(countPages(skia), 7);
  // As Skia m147 writes it: a key a line.
  const lines = Buffer.from('%PDF-1.4\n6 0 obj\n<</Type /Pages\n/Count 12\n/Kids [2 0 R]>>\nendobj\n7 0 obj\n<</Type /Catalog\n/Pages 6 0 R>>\nendobj\n');
  assert.equal(countPages(lines), 12);
  assert.equal(countPages(Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n')), undefined);
});

test('pdf-lib’s layout (the header stamp, the toolbox) is counted too: /Kids before /Count', async () => {
  const doc = await PDFDocument.create();
  for (let i = 0; i < 3; i++) doc.addPage();
  assert.equal(countPages(await doc.save({ useObjectStreams: false })), 3);
  assert.equal(countPages(await doc.save()), 3);
});
