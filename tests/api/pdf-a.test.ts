// options.pdf_a against a real Chromium (and LibreOffice where installed): every source kind and
// merges, with headers, footers, watermark, metadata and outline; each file read back with tools
// other than the code under test (pdfinfo -meta, qpdf --json, pdffonts, pdftotext, PDFBox
// Preflight for 1b, veraPDF where VERAPDF names it); the refusals before the charge; a file that
// fails a rule answered 422 conformance_failed, uncharged; Chromium's raw output fails the checker.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument, cmyk } from 'pdf-lib';
import { checkConformance } from '../../server/src/pdf/conformance.ts';
import { errorOf, startTestServer, usageOf, type TestServer } from '../helpers/start-app.ts';
import { startFixtureServer } from '../helpers/fixture-server.ts';
import { officeTest } from '../helpers/needs-office.ts';
import { base64, odt } from '../helpers/office-fixtures.ts';
import { archivalParts, fontsOf, pdfaIdOf, qpdfJson, preflight1b, preflightMissing, textOf, veraPdf, veraPdfCommand } from '../helpers/pdf-a-tools.ts';

const INVOICE =
  '<title>Invoice 42</title><h1>Invoice 42</h1><p>Seller: Acme GmbH, Berlin</p>' +
  '<p><a href="https://example.com/terms">Terms</a></p><h2>Lines</h2><table><tr><td>Widget</td><td>12.00 EUR</td></tr></table>' +
  '<div style="break-before: page"></div><h2>Payment</h2><p>Due in 30 days</p>';
const HEADS = {
  header_template: '<div style="font-size:8px">Acme archive</div>',
  footer_template: '<div style="font-size:8px">Page <span class="pageNumber"></span></div>',
};
const DECORATED = { ...HEADS, metadata: { title: 'Invoice 42', author: 'Acme GmbH', keywords: ['invoice'] }, outline: true, watermark: { text: 'COPY' } };

async function pdfOf(response: Response): Promise<Uint8Array> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, Buffer.from(bytes.subarray(0, 400)).toString());
  return bytes;
}

/** What every PDF/A file must show to the independent tools. */
function assertArchival(bytes: Uint8Array, part: string, conformance: string) {
  const id = pdfaIdOf(bytes);
  assert.equal(id.part, part, id.xmp);
  assert.equal(id.conformance, conformance);
  const parts = archivalParts(bytes);
  assert.equal(parts.intents.length, 1);
  assert.equal(parts.intents[0]!.s, '/GTS_PDFA1');
  assert.equal(parts.intents[0]!.n, 3);
  assert.ok(Array.isArray(parts.id) && parts.id.length === 2, 'trailer /ID');
  const fonts = fontsOf(bytes);
  assert.ok(fonts.length > 0);
  assert.ok(
    fonts.every((font) => font.embedded),
    JSON.stringify(fonts),
  );
}

/** Link annotations, as qpdf reads them (object streams included). */
function linkCount(bytes: Uint8Array): number {
  return Object.values(qpdfJson(bytes).objects).filter((object) => object.value?.['/Subtype'] === '/Link').length;
}

test('options.pdf_a', { timeout: 600_000 }, async (t) => {
  const fixture = await startFixtureServer({ '/page': INVOICE });
  t.after(() => fixture.close());
  const server: TestServer = await startTestServer(t, { allowHosts: [`127.0.0.1:${fixture.port}`] });
  const render = async (options: object, source: object = { html: INVOICE }) => pdfOf(await server.render({ ...source, options }));

  await t.test(
    'an html invoice as PDF/A-2b with header, footer, watermark, metadata and outline: identified, same text, links and bookmarks kept',
    async () => {
      const plain = await render(DECORATED);
      const response = await server.render({ html: INVOICE, options: { ...DECORATED, pdf_a: 'PDF/A-2b' } });
      assert.match(response.headers.get('x-pdf-conformance') ?? '', /^PDF\/A-2b; rules=\d+; failed=0$/);
      const archival = await pdfOf(response);
      assertArchival(archival, '2', 'B');
      assert.equal(textOf(archival), textOf(plain));
      assert.match(textOf(archival), /Acme archive[\s\S]*Page 1/);
      // The watermark stays text (pdftotext breaks the rotated word into pieces).
      assert.match(textOf(archival), /C\s+O\s+PY/);
      assert.equal(linkCount(archival), linkCount(plain));
      assert.ok(linkCount(archival) >= 1);
      assert.ok(archivalParts(archival).catalog['/Outlines'], 'the outline is kept');
      assert.match(pdfaIdOf(archival).xmp, /Acme GmbH/);
    },
  );

  await t.test('2u, 3b and 3u, and the short spelling "2b"', async () => {
    for (const [level, part, conformance] of [
      ['PDF/A-2u', '2', 'U'],
      ['3b', '3', 'B'],
      ['PDF/A-3u', '3', 'U'],
      ['2b', '2', 'B'],
    ] as const) {
      const archival = await render({ ...HEADS, pdf_a: level });
      assertArchival(archival, part, conformance);
      if (conformance === 'U') assert.ok(fontsOf(archival).every((font) => font.unicode));
    }
  });

  await t.test('PDF/A-3a of a tagged render keeps the structure tree; 3a without tagged is a 400 before any charge', async () => {
    const archival = await render({ tagged: true, pdf_a: 'PDF/A-3a' });
    assertArchival(archival, '3', 'A');
    assert.ok(archivalParts(archival).catalog['/StructTreeRoot'], 'StructTreeRoot kept');
    const before = await usageOf(server);
    const error = await errorOf(await server.render({ html: INVOICE, options: { pdf_a: 'PDF/A-3a' } }));
    assert.equal(error.status, 400);
    assert.match(error.detail, /options\.pdf_a.*tagged/);
    assert.equal(await usageOf(server), before);
  });

  await t.test(
    `PDF/A-1b without rasterising: text and fonts kept, PDFBox Preflight accepts it${preflightMissing ? ` (Preflight skipped: ${preflightMissing})` : ''}`,
    async () => {
      const archival = await render({ ...HEADS, pdf_a: 'PDF/A-1b' });
      assertArchival(archival, '1', 'B');
      assert.match(textOf(archival), /Seller: Acme GmbH/);
      if (!preflightMissing) {
        const verdict = preflight1b(archival);
        assert.ok(verdict.valid, verdict.output);
        // Negative control: Preflight refuses Chromium's raw output.
        assert.equal(preflight1b(await render({ ...HEADS })).valid, false);
      }
    },
  );

  await t.test('url, template and markdown sources', async () => {
    assertArchival(await render({ pdf_a: '2b' }, { url: `${fixture.url}/page` }), '2', 'B');
    const created = await server.request('POST', '/v1/templates', { name: 'Invoice', html: '<h1>Invoice {{number}}</h1><p>{{seller}}</p>' });
    const { template_id } = (await created.json()) as { template_id: string };
    const fromTemplate = await pdfOf(await server.render({ template_id, data: { number: 7, seller: 'Acme' }, options: { pdf_a: '3b', ...HEADS } }));
    assertArchival(fromTemplate, '3', 'B');
    assert.match(textOf(fromTemplate), /Invoice 7/);
    const fromMarkdown = await pdfOf(await server.render({ markdown: '# Minutes\n\nAgreed: *archive* everything.', options: { pdf_a: '2u' } }));
    assertArchival(fromMarkdown, '2', 'U');
    assert.match(textOf(fromMarkdown), /Agreed: archive everything/);
  });

  await t.test('a merge of a rendered page, an uploaded PDF and a stored document, as PDF/A-3b with a footer', async () => {
    const uploaded = await render({});
    const stored = await server.render({ html: '<p>Stored annex</p>', store: true });
    const documentId = stored.headers.get('x-document-id')!;
    await stored.arrayBuffer();
    const response = await server.request('POST', '/v1/pdf/merge', {
      sources: [{ html: '<h1>Cover</h1>' }, { pdf: base64(uploaded) }, { document_id: documentId }],
      options: { pdf_a: 'PDF/A-3b', footer: 'Pack page {{page}}', metadata: { title: 'Pack' } },
    });
    assert.match(response.headers.get('x-pdf-conformance') ?? '', /^PDF\/A-3b; /);
    const merged = await pdfOf(response);
    assertArchival(merged, '3', 'B');
    assert.match(textOf(merged), /Cover[\s\S]*Seller: Acme GmbH[\s\S]*Stored annex/);
  });

  await t.test('an existing PDF made archival: a merge of one uploaded PDF; Chromium’s raw output fails the checker before', async () => {
    const raw = await render({});
    const before = await checkConformance(raw, 'PDF/A-2b');
    assert.equal(before.passed, false);
    assert.ok(before.failed.some((rule) => rule.rule === 'output-intent'));
    assert.ok(before.failed.some((rule) => rule.rule === 'xmp-identification'));
    const archival = await pdfOf(await server.request('POST', '/v1/pdf/merge', { sources: [{ pdf: base64(raw) }], options: { pdf_a: 'PDF/A-2b' } }));
    assertArchival(archival, '2', 'B');
    assert.equal(textOf(archival), textOf(raw));
  });

  await t.test('batch items take pdf_a, and the stored copies are archival', async () => {
    const response = await server.request('POST', '/v1/pdf/batch', {
      requests: [{ html: INVOICE }, { html: '<p>Second</p>', options: { pdf_a: 'PDF/A-3u' } }],
      options: { pdf_a: 'PDF/A-2b' },
    });
    assert.equal(response.status, 200);
    const batch = (await response.json()) as { results: { status: string; document_id: string }[] };
    const expected = [
      ['2', 'B'],
      ['3', 'U'],
    ];
    for (const [index, result] of batch.results.entries()) {
      assert.equal(result.status, 'succeeded');
      const stored = await pdfOf(await server.request('GET', `/v1/documents/${result.document_id}`));
      assertArchival(stored, expected[index]![0]!, expected[index]![1]!);
    }
  });

  await t.test('refusals name the field and charge nothing: encrypt, a source’s own pdf_a, 1b with a translucent watermark, an unknown level', async () => {
    const before = await usageOf(server);
    const encrypted = await errorOf(await server.render({ html: INVOICE, options: { pdf_a: '2b', encrypt: { owner_password: 'o' } } }));
    assert.equal(encrypted.status, 400);
    assert.match(encrypted.detail, /options\.encrypt cannot be combined with options\.pdf_a/);
    const sourceLevel = await errorOf(await server.request('POST', '/v1/pdf/merge', { sources: [{ html: 'x', options: { pdf_a: '2b' } }] }));
    assert.equal(sourceLevel.status, 400);
    assert.match(sourceLevel.detail, /sources\[0\]\.options\.pdf_a/);
    const translucent = await errorOf(await server.render({ html: INVOICE, options: { pdf_a: '1b', watermark: { text: 'COPY' } } }));
    assert.equal(translucent.status, 400);
    assert.match(translucent.detail, /options\.watermark\.opacity/);
    const unknown = await errorOf(await server.render({ html: INVOICE, options: { pdf_a: '4b' } }));
    assert.equal(unknown.status, 400);
    assert.match(unknown.detail, /options\.pdf_a/);
    assert.equal(await usageOf(server), before);
  });

  await t.test('a file that fails a rule (device CMYK under the sRGB intent) is a 422 conformance_failed, uncharged', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([200, 200]).drawRectangle({ x: 10, y: 10, width: 50, height: 50, color: cmyk(0, 0, 0, 1) });
    const before = await usageOf(server);
    const error = await errorOf(
      await server.request('POST', '/v1/pdf/merge', { sources: [{ pdf: base64(await doc.save()) }], options: { pdf_a: 'PDF/A-2b' } }),
    );
    assert.equal(error.status, 422);
    assert.equal(error.code, 'conformance_failed');
    assert.match(error.detail, /device-colour/);
    assert.equal(await usageOf(server), before);
  });

  await t.test('the receipt records the conformance report', async () => {
    const response = await server.render({ html: INVOICE, options: { pdf_a: '2b', receipt: true } });
    await pdfOf(response);
    const receipt = (await (await server.request('GET', response.headers.get('x-render-receipt')!)).json()) as {
      steps: { step: string; report: { level: string; failed: unknown[]; rules: number } }[];
    };
    const step = receipt.steps.find((entry) => entry.step === 'pdf_a');
    assert.equal(step?.report.level, 'PDF/A-2b');
    assert.deepEqual(step?.report.failed, []);
    assert.ok((step?.report.rules ?? 0) >= 20);
  });

  await t.test(
    veraPdfCommand
      ? 'veraPDF accepts every level'
      : 'veraPDF accepts every level (skipped: no VERAPDF command here; veraPDF is not obtainable on this machine)',
    { skip: !veraPdfCommand },
    async () => {
      for (const level of ['1b', '2b', '2u', '3b', '3u']) {
        const verdict = veraPdf(await render({ ...HEADS, pdf_a: level }), level);
        assert.ok(verdict.valid, `${level}: ${verdict.output}`);
      }
      const verdict = veraPdf(await render({ tagged: true, pdf_a: '3a' }), '3a');
      assert.ok(verdict.valid, verdict.output);
    },
  );
});

officeTest('options.pdf_a on office files', { timeout: 300_000 }, async (t) => {
  const server = await startTestServer(t, {});
  await t.test('an office letter as PDF/A-2b with the company footer and metadata', async () => {
    const response = await server.request('POST', '/v1/convert/office', {
      file: base64(odt(['Dear customer, thank you.'])),
      filename: 'letter.odt',
      options: { pdf_a: 'PDF/A-2b', footer: 'Acme GmbH, Berlin', metadata: { title: 'Letter' } },
    });
    assert.match(response.headers.get('x-pdf-conformance') ?? '', /^PDF\/A-2b; rules=\d+; failed=0$/);
    const bytes = await pdfOf(response);
    assertArchival(bytes, '2', 'B');
    assert.match(textOf(bytes), /Dear customer[\s\S]*Acme GmbH, Berlin/);
  });
});
