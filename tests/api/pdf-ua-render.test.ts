// options.pdf_ua through POST /v1/pdf (issue 42): the starter invoice comes out as PDF/UA-1 with the
// X-PDF-UA header and a passing report in the receipt, composes with PDF/A-2a, and is read by pdfinfo
// and qpdf; no title is a 400 and a heading order the fixer cannot fix a 422 accessibility_failed,
// both uncharged. Real Chromium throughout.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorOf, startTestServer, usageOf, type TestServer } from '../helpers/start-app.ts';
import { pdfInfo, qdfText } from '../helpers/pdf-cli.ts';
import { pdfaIdOf } from '../helpers/pdf-a-tools.ts';
import { invoiceHtml } from '../helpers/tagged-pdf.ts';

const SKIPPED_LEVEL = '<!doctype html><html lang="en"><head><title>Skipped</title></head><body><h1>Report</h1><h3>Detail</h3><p>Text</p></body></html>';
const UNTITLED = '<!doctype html><html lang="en"><body><h1>No title</h1><p>Text</p></body></html>';

async function pdfOf(response: Response): Promise<Uint8Array> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, Buffer.from(bytes.subarray(0, 600)).toString());
  return bytes;
}

test('options.pdf_ua', { timeout: 600_000 }, async (t) => {
  const server: TestServer = await startTestServer(t);
  const invoice = invoiceHtml();

  await t.test('the starter invoice is PDF/UA-1: X-PDF-UA failed=0, tagged, titled, pdfuaid in the XMP', async () => {
    const response = await server.render({ html: invoice, options: { pdf_ua: 'PDF/UA-1' } });
    const header = response.headers.get('x-pdf-ua');
    const bytes = await pdfOf(response);
    assert.match(header ?? '', /^PDF\/UA-1; checks=\d+; failed=0$/);
    const info = pdfInfo(bytes);
    assert.equal(info.Tagged, 'yes');
    assert.match(info.Title ?? '', /^Invoice /);
    assert.match(pdfaIdOf(bytes).xmp, /<pdfuaid:part>1<\/pdfuaid:part>/);
    assert.match(qdfText(bytes), /\/DisplayDocTitle true/);
  });

  await t.test('with pdf_a PDF/A-2a both steps pass and both headers are sent', async () => {
    const response = await server.render({ html: invoice, options: { pdf_ua: 'PDF/UA-1', pdf_a: 'PDF/A-2a' } });
    const ua = response.headers.get('x-pdf-ua');
    const conformance = response.headers.get('x-pdf-conformance');
    const bytes = await pdfOf(response);
    assert.match(ua ?? '', /failed=0$/);
    assert.match(conformance ?? '', /^PDF\/A-2a; rules=\d+; failed=0/);
    const id = pdfaIdOf(bytes);
    assert.equal(id.part, '2');
    assert.equal(id.conformance, 'A');
    assert.match(id.xmp, /<pdfuaid:part>1<\/pdfuaid:part>/, 'PDF/A after UA keeps pdfuaid');
    assert.equal(pdfInfo(bytes).Tagged, 'yes');
  });

  await t.test('the receipt records the report with needs_person and the changes made', async () => {
    const response = await server.render({ html: invoice, options: { pdf_ua: 'PDF/UA-1', receipt: true } });
    await pdfOf(response);
    const receipt = (await (await server.request('GET', response.headers.get('x-render-receipt')!)).json()) as {
      steps: { step: string; report: { level: string; failed: unknown[]; checks: number; needs_person: unknown[]; changes: string[] } }[];
    };
    const step = receipt.steps.find((entry) => entry.step === 'pdf_ua');
    assert.equal(step?.report.level, 'PDF/UA-1');
    assert.deepEqual(step?.report.failed, []);
    assert.ok((step?.report.needs_person.length ?? 0) > 0);
    assert.ok(step?.report.changes.includes('pdfuaid:part 1 in the XMP'));
  });

  await t.test(
    "Quire's header, footer and watermark are drawn before the step and pass as artifacts; the watermark's Helvetica is embedded (31-009)",
    async () => {
      const heads = { pdf_ua: 'PDF/UA-1', header: 'Acme GmbH', footer: 'Page {{page}} of {{pages}}', watermark: { text: 'COPY' } };
      const response = await server.render({ html: invoice, options: heads });
      const header = response.headers.get('x-pdf-ua');
      const bytes = await pdfOf(response);
      assert.match(header ?? '', /failed=0$/);
      // Before, the watermark's standard Helvetica was left unembedded: a 422 naming 31-009.
      const fonts = qdfText(bytes);
      assert.doesNotMatch(fonts, /\/BaseFont \/Helvetica\b[\s\S]{0,200}?\/Type \/Font/);
      assert.match(fonts, /\/FontName \/LiberationSans/);
    },
  );

  await t.test('metadata.title gives an untitled page its title; without one it is a 400, uncharged', async () => {
    const titled = await pdfOf(await server.render({ html: UNTITLED, options: { pdf_ua: 'PDF/UA-1', metadata: { title: 'Given title' } } }));
    assert.equal(pdfInfo(titled).Title, 'Given title');
    const before = await usageOf(server);
    const error = await errorOf(await server.render({ html: UNTITLED, options: { pdf_ua: 'PDF/UA-1' } }));
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid_request');
    assert.match(error.detail, /<title>.*options\.metadata\.title/);
    assert.equal(await usageOf(server), before);
  });

  await t.test('h1 then h3 fails 14-003, which the fixer cannot fix: 422 accessibility_failed naming it, uncharged', async () => {
    const before = await usageOf(server);
    const response = await server.render({ html: SKIPPED_LEVEL, options: { pdf_ua: 'PDF/UA-1' } });
    assert.equal(response.headers.get('x-pdf-ua'), null);
    const body = (await response.json()) as { code: string; detail: string; failed: { condition: string; page: number | null; detail: string }[] };
    assert.equal(response.status, 422, JSON.stringify(body));
    assert.equal(body.code, 'accessibility_failed');
    assert.match(body.detail, /14-003/);
    const finding = body.failed.find((entry) => entry.condition === '14-003');
    assert.ok(finding, JSON.stringify(body.failed));
    // Chromium writes no /Pg on headings: the page is the one the parent tree gives its marked content (null before).
    assert.equal(finding.page, 1);
    assert.match(finding.detail, /H3 follows H1/);
    assert.equal(await usageOf(server), before);
  });

  await t.test('an unknown level and a bad lang are 400s', async () => {
    assert.equal((await server.render({ html: invoice, options: { pdf_ua: 'PDF/UA-2' } })).status, 400);
    assert.equal((await server.render({ html: invoice, options: { pdf_ua: 'PDF/UA-1', lang: 'not a tag' } })).status, 400);
  });
});
