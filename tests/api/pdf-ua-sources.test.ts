// Issue 42's done-when files, each as PDF/UA-1 and as PDF/A-2a + UA-1 through the API: the starter
// invoice (docs/examples), the bench's report (50 sections, the "52-page report"), a Markdown file, a docx (LibreOffice's
// PDF/UA export, then the fixer) and a template with a header, footer, watermark and a figure.
// Each passes Quire's checker on the bytes returned, and other tools confirm it: pdfinfo's Tagged,
// qpdf's /Lang, /DisplayDocTitle, structure types and Figure /Alt, artifacts in the content
// streams, and pdftotext's reading order.

import assert from 'node:assert/strict';
import { reportHtml } from '../../bench/workloads.ts';
import { checkUa } from '../../server/src/pdf/ua/check-ua.ts';
import { officeTest } from '../helpers/needs-office.ts';
import { base64, docx } from '../helpers/office-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/start-app.ts';
import { invoiceHtml } from '../helpers/tagged-pdf.ts';
import { assertReadingOrder, assertUaSeen, type UaSeen, uaSeen } from '../helpers/ua-tools.ts';

const LEVELS = [{}, { pdf_a: 'PDF/A-2a' }] as const;

const FIGURE = `data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='60' height='30'%3E%3Crect width='60' height='30' fill='navy'/%3E%3C/svg%3E`;

const LETTER =
  '<!doctype html><html lang="de-DE"><head><meta charset="utf-8"><title>Brief {{number}}</title></head><body>' +
  `<h1>Brief {{number}}</h1><p><img alt="Das Logo der Acme GmbH" src="${FIGURE}"></p><h2>Betreff</h2><p>Guten Tag {{name}},</p><p>vielen Dank.</p></body></html>`;

const MARKDOWN = '# Release notes\n\nThe *first* paragraph.\n\n## Fixes\n\n- one fix\n- another fix\n\n| Item | State |\n|---|---|\n| Tea | done |\n';

/** The answer's bytes, with its X-PDF-UA (and, for 2a, X-PDF-Conformance) said to pass, and Quire's checker passing them again. */
async function passing(response: Response, level: (typeof LEVELS)[number], label: string): Promise<UaSeen> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, `${label}: ${Buffer.from(bytes.subarray(0, 800)).toString()}`);
  assert.match(response.headers.get('x-pdf-ua') ?? '', /^PDF\/UA-1; checks=30; failed=0$/, label);
  const report = await checkUa(bytes);
  assert.deepEqual(report.failed, [], `${label}: Quire's checker on the bytes returned`);
  const seen = uaSeen(bytes);
  if ('pdf_a' in level) {
    assert.match(response.headers.get('x-pdf-conformance') ?? '', /^PDF\/A-2a; rules=\d+; failed=0/, label);
    assert.deepEqual(seen.pdfa, { part: '2', conformance: 'A' }, `${label}: pdfaid`);
  }
  return seen;
}

async function eachLevel(server: TestServer, label: string, body: (level: (typeof LEVELS)[number]) => unknown, path = '/v1/pdf'): Promise<UaSeen[]> {
  const seen: UaSeen[] = [];
  for (const level of LEVELS) seen.push(await passing(await server.request('POST', path, body(level)), level, `${label} ${JSON.stringify(level)}`));
  return seen;
}

officeTest('PDF/UA-1 and PDF/A-2a + UA-1 from every source, confirmed by pdfinfo, qpdf and pdftotext', { timeout: 900_000 }, async (t) => {
  const server = await startTestServer(t);

  await t.test('the starter invoice: its table headers and heading, English, title shown', async () => {
    for (const seen of await eachLevel(server, 'invoice', (level) => ({ html: invoiceHtml(), options: { pdf_ua: 'PDF/UA-1', ...level } }))) {
      assertUaSeen(seen, 'en', ['Document', 'H1', 'Table', 'TH', 'TD'], 'invoice');
      assertReadingOrder(seen.text, ['Invoice', 'Item', 'Quantity', 'Unit price', 'VAT', 'Amount'], 'invoice');
    }
  });

  await t.test(
    'the bench’s report (the issue’s 52-page report; 50 sections): its first heading is an h2 (14-002, page 1, a 422); with h1 headings, a title and lang, it passes',
    async () => {
      const asBenched = await server.render({ html: reportHtml(), options: { pdf_ua: 'PDF/UA-1', lang: 'en', metadata: { title: 'Quarterly report' } } });
      const refused = (await asBenched.json()) as { code: string; failed: { condition: string; page: number | null }[] };
      assert.equal(asBenched.status, 422);
      assert.deepEqual(refused.failed, [{ condition: '14-002', page: 1, detail: 'the first heading is H2' }]);
      const html = reportHtml().replace(/<(\/?)h2>/g, '<$1h1>');
      const options = { pdf_ua: 'PDF/UA-1', lang: 'en-GB', metadata: { title: 'Quarterly report' } };
      for (const seen of await eachLevel(server, 'report', (level) => ({ html, options: { ...options, ...level } }))) {
        assertUaSeen(seen, 'en-GB', ['H1', 'Table', 'TH'], 'report');
        assertReadingOrder(seen.text, ['Section 1', 'Region', 'Section 2', 'Section 49', 'Section 50'], 'report');
        assert.ok(seen.text.split('\f').length - 1 >= 50, 'report: 50 sections, a page or more each');
      }
    },
  );

  await t.test('a Markdown file: headings, list and table tagged', async () => {
    const options = { pdf_ua: 'PDF/UA-1', lang: 'en', metadata: { title: 'Release notes' } };
    for (const seen of await eachLevel(server, 'markdown', (level) => ({ markdown: MARKDOWN, options: { ...options, ...level } }))) {
      assertUaSeen(seen, 'en', ['H1', 'H2', 'L', 'LI', 'Table', 'TH'], 'markdown');
      assertReadingOrder(seen.text, ['Release notes', 'first', 'Fixes', 'one fix', 'another fix', 'Tea'], 'markdown');
    }
  });

  await t.test("a docx: LibreOffice's PDF/UA export made UA-1, with Quire's header and footer as artifacts", async () => {
    const file = base64(docx([['Quarterly report', 'The first page of the report.'], ['The second page.']]));
    const options = { pdf_ua: 'PDF/UA-1', lang: 'en', metadata: { title: 'Quarterly report' }, header: 'Acme GmbH', footer: 'Page {{page}} of {{pages}}' };
    const body = (level: object) => ({ file, filename: 'report.docx', options: { ...options, ...level } });
    for (const seen of await eachLevel(server, 'docx', body, '/v1/convert/office')) {
      assertUaSeen(seen, 'en', ['Document', 'Standard'], 'docx');
      // Quire's header and footer are drawn untagged; 01-005 would name any that were not made artifacts.
      assert.ok(seen.artifacts >= 2, `docx: an artifact on each page (${seen.artifacts})`);
      assertReadingOrder(seen.text, ['Acme GmbH', 'Quarterly report', 'The first page', 'Page 1 of 2', 'The second page'], 'docx');
    }
    // LibreOffice's own export as it makes it (pdf_ua true) is not checked by Quire: no X-PDF-UA.
    const own = await server.request('POST', '/v1/convert/office', { file, filename: 'report.docx', options: { pdf_ua: true } });
    assert.equal(own.status, 200);
    assert.equal(own.headers.get('x-pdf-ua'), null);
  });

  await t.test('a template with a header, footer, watermark and a figure: artifacts, the figure keeps its alt text', async () => {
    const created = await server.request('POST', '/v1/templates', { name: 'UA letter', html: LETTER });
    const { template_id } = (await created.json()) as { template_id: string };
    const options = { pdf_ua: 'PDF/UA-1', header: 'Acme GmbH', footer: 'Seite {{page}} von {{pages}}', watermark: { text: 'ENTWURF' } };
    const body = (level: object) => ({ template_id, data: { number: 'B-7', name: 'Frau Muster' }, options: { ...options, ...level } });
    for (const seen of await eachLevel(server, 'template', body)) {
      assertUaSeen(seen, 'de-DE', ['H1', 'H2', 'Figure', 'P'], 'template');
      assert.deepEqual(seen.figureAlts, ['Das Logo der Acme GmbH'], 'template: the Figure keeps its /Alt');
      // The header, footer and watermark are on the page, marked as artifacts (the checker's 01-005 names
      // painting that is neither tagged nor an artifact), and the reading order of the body is kept.
      assert.ok(seen.artifacts >= 1, `template: ${seen.artifacts} artifacts`);
      for (const mark of ['Acme GmbH', 'Seite 1 von 1', 'ENTWURF'])
        assert.ok(seen.text.replace(/\s+/g, ' ').includes(mark) || seen.text.replace(/\s+/g, '').includes(mark), `template: ${mark} on the page`);
      assertReadingOrder(seen.text, ['Brief B-7', 'Betreff', 'Guten Tag Frau Muster', 'vielen Dank'], 'template');
    }
  });
});
