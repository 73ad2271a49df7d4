// options.toc and <quire-toc> on a real Chromium, read back from the PDF with pdftotext (per page)
// and pdf-lib: a 40-page Markdown report whose TOC numbers are the pages its headings print on, its
// links open those pages, its footer numbers and bookmarks agree; page_ranges numbered as printed;
// an HTML <quire-toc> after a cover; a template; a merge of chapters; the 400s for a bad toc.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorOf, startTestServer } from '../helpers/start-app.ts';
import { pageTexts, textPdf } from '../helpers/pdf-cli.ts';
import { linkPages, outlinePages, printedOn, reportHeadings, reportMarkdown, tocNumber } from '../helpers/toc-pdf.ts';

const LOAD = { wait_until: 'load' };

async function pdfOf(response: Response): Promise<Uint8Array> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, `expected a PDF, got ${response.status}: ${Buffer.from(bytes.subarray(0, 300)).toString()}`);
  return bytes;
}

/** The TOC's pages: those before the first page that prints the first heading as a line of its own. */
function tocPageCount(pages: string[], first: string): number {
  const at = printedOn(pages, first, 0);
  assert.ok(at !== null, `"${first}" is printed nowhere`);
  return at - 1;
}

/** Per title: the number the TOC shows and the page pdftotext finds the heading on. */
function tocAgainstPages(pages: string[], titles: string[], tocPages: number): { title: string; listed: number | null; printed: number | null }[] {
  const toc = pages.slice(0, tocPages).join('\n');
  return titles.map((title) => {
    const listed = tocNumber(toc, title);
    assert.ok(listed !== undefined, `the TOC has no line for "${title}"`);
    return { title, listed, printed: printedOn(pages, title, tocPages) };
  });
}

test('table of contents', async (t) => {
  const server = await startTestServer(t);
  const titles = reportHeadings().map((heading) => heading.title);
  let tocPages = 0;

  await t.test('a 40-page Markdown report lists every heading with the page it prints on, and its links, footer and bookmarks agree', async () => {
    const footer = '<div style="text-align:center">Page {{page}} of {{pages}}</div>';
    const options = { ...LOAD, toc: { depth: 2 }, outline: true, footer };
    const pdf = await pdfOf(await server.render({ markdown: reportMarkdown(), options }));
    const pages = pageTexts(pdf);
    assert.ok(pages.length >= 40, `the report has ${pages.length} pages`);
    assert.match(pages[0]!, /^\s*Contents/);
    tocPages = tocPageCount(pages, titles[0]!);
    // 48 entries do not fit on one page: the TOC's own pages are counted in every number.
    assert.ok(tocPages >= 2, `the TOC takes ${tocPages} page(s)`);
    const rows = tocAgainstPages(pages, titles, tocPages);
    for (const row of rows) {
      assert.ok(row.printed !== null, `"${row.title}" is not printed after the TOC`);
      assert.equal(row.listed, row.printed, `"${row.title}" is listed on page ${row.listed} but printed on page ${row.printed}`);
      assert.ok(pages[row.printed - 1]!.includes(`Page ${row.printed} of ${pages.length}`), `the footer of page ${row.printed} disagrees`);
    }
    const tocPageNumbers = Array.from({ length: tocPages }, (_, i) => i + 1);
    assert.deepEqual(
      await linkPages(pdf, tocPageNumbers),
      rows.map((row) => row.printed),
      'the TOC links open the pages it lists',
    );
    const outline = new Map((await outlinePages(pdf)).map((entry) => [entry.title, entry.page]));
    for (const row of rows) assert.equal(outline.get(row.title), row.listed, `the bookmark "${row.title}" opens another page than the TOC says`);
  });

  await t.test('with page_ranges the numbers are those of the printed document; a heading left out has no number and no link', async () => {
    assert.ok(tocPages > 0, 'runs after the first subtest');
    const pdf = await pdfOf(await server.render({ markdown: reportMarkdown(), options: { ...LOAD, toc: { depth: 2 }, page_ranges: `1-${tocPages}, 12-25` } }));
    const pages = pageTexts(pdf);
    assert.equal(pages.length, tocPages + 14);
    const rows = tocAgainstPages(pages, titles, tocPages);
    const printed = rows.filter((row) => row.printed !== null);
    assert.ok(printed.length >= 10 && printed.length < rows.length, `${printed.length} of ${rows.length} headings printed`);
    for (const row of rows) assert.equal(row.listed, row.printed, `"${row.title}": listed ${row.listed}, printed ${row.printed}`);
    const links = await linkPages(
      pdf,
      Array.from({ length: tocPages }, (_, i) => i + 1),
    );
    assert.deepEqual(
      links,
      printed.map((row) => row.printed),
    );
  });

  await t.test('a <quire-toc> element after a cover page takes the TOC there, with its own title and depth', async () => {
    const section = (title: string) => `<h2>${title}</h2><p style="height:1200px">Text of ${title}.</p>`;
    const html =
      '<style>body{font:14px Arial} .quire-toc-title{color:#c00}</style><div style="break-after:page">Cover sheet</div>' +
      '<quire-toc title="In this file" depth="2"></quire-toc>' +
      `<h1 id="first">First chapter</h1>${section('Alpha part')}${section('Beta part')}<h1>Second chapter</h1>${section('Gamma part')}<h3>Deep heading</h3>`;
    // The default options: the page on its virtual clock (networkidle0), held through both prints.
    const pdf = await pdfOf(await server.render({ html }));
    const pages = pageTexts(pdf);
    assert.match(pages[0]!, /Cover sheet/);
    assert.match(pages[1]!, /^\s*In this file/);
    assert.doesNotMatch(pages[1]!, /Deep heading/);
    const titles = ['First chapter', 'Alpha part', 'Beta part', 'Second chapter', 'Gamma part'];
    const rows = tocAgainstPages(pages, titles, 2);
    for (const row of rows) assert.equal(row.listed, row.printed, `"${row.title}": listed ${row.listed}, printed ${row.printed}`);
    assert.deepEqual(
      await linkPages(pdf, [2]),
      rows.map((row) => row.printed),
    );
  });

  await t.test('a template with options.toc numbers its expanded headings', async () => {
    const created = await server.request('POST', '/v1/templates', {
      name: 'toc-report',
      html: '{{#parts}}<h1>{{.}}</h1><p style="height:1500px">About {{.}}.</p>{{/parts}}',
    });
    assert.equal(created.status, 201, await created.clone().text());
    const { template_id } = (await created.json()) as { template_id: string };
    const parts = ['Income', 'Spending', 'Outlook'];
    const pdf = await pdfOf(await server.render({ template_id, data: { parts }, options: { ...LOAD, toc: { title: 'Index' } } }));
    const pages = pageTexts(pdf);
    assert.match(pages[0]!, /^\s*Index/);
    for (const row of tocAgainstPages(pages, parts, 1)) assert.equal(row.listed, row.printed, `"${row.title}"`);
  });

  await t.test('a merge with toc makes its sources chapters: a TOC page first, numbered, linked, bookmarked, counted by the footer', async () => {
    const sheets = (label: string, count: number) =>
      Array.from({ length: count }, (_, i) => `<div style="break-after:page">${label} sheet ${i + 1}</div>`).join('');
    const upload = Buffer.from(await textPdf(['Scan one', 'Scan two', 'Scan three'])).toString('base64');
    const body = {
      sources: [
        { html: `<title>Annual report</title>${sheets('Report', 3)}`, options: LOAD },
        { markdown: 'Notes on the year.\n\nMore notes.', title: 'Appendix', options: LOAD },
        { pdf: upload, page_ranges: '2-3' },
      ],
      options: { toc: { title: 'Chapters' }, footer: '<div style="text-align:center">Page {{page}} of {{pages}}</div>' },
    };
    const response = await server.request('POST', '/v1/pdf/merge', body);
    const pdf = await pdfOf(response);
    const pages = pageTexts(pdf);
    assert.equal(pages.length, 1 + 3 + 1 + 2);
    assert.match(pages[0]!, /^\s*Chapters/);
    const expected = [
      { title: 'Annual report', page: 2, text: 'Report sheet 1' },
      { title: 'Appendix', page: 5, text: 'Notes on the year.' },
      { title: 'Document 3', page: 6, text: 'Scan two' },
    ];
    for (const chapter of expected) {
      assert.equal(tocNumber(pages[0]!, chapter.title), chapter.page, `the TOC line of ${chapter.title}`);
      assert.ok(pages[chapter.page - 1]!.includes(chapter.text), `page ${chapter.page} starts ${chapter.title}`);
      assert.ok(pages[chapter.page - 1]!.includes(`Page ${chapter.page} of ${pages.length}`), `the footer of page ${chapter.page}`);
    }
    assert.deepEqual(
      await linkPages(pdf, [1]),
      expected.map((chapter) => chapter.page),
    );
    assert.deepEqual(await outlinePages(pdf), [{ title: 'Chapters', page: 1 }, ...expected.map(({ title, page }) => ({ title, page }))]);
  });

  await t.test('a bad toc is a 400 naming the field', async () => {
    for (const toc of [{ depth: 7 }, { depth: 0 }, { position: 'middle' }, { title: 5 }, { colour: 'red' }, 'yes']) {
      const answer = await errorOf(await server.render({ html: '<h1>A</h1>', options: { toc } }));
      assert.equal(answer.status, 400, JSON.stringify(toc));
      assert.equal(answer.code, 'invalid_request');
      assert.match(answer.detail, /options\.toc/, answer.detail);
    }
    const merge = await errorOf(await server.request('POST', '/v1/pdf/merge', { sources: [{ html: '<p>a</p>' }], options: { toc: { depth: 2 } } }));
    assert.equal(merge.status, 400);
    assert.match(merge.detail, /options\.toc/, merge.detail);
  });
});
