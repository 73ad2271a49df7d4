// options.header and options.footer on pages Quire did not lay out, read back from the PDF: an
// office conversion (sections from its bookmarks, title from the file's name, data placeholders,
// the content shrunk to clear the boxes or left in place with header_footer_fit: margin), several
// office files numbered across, uploaded and stored PDFs in a merge (a turned page included, and a
// source that opts out), and the 400s for what cannot be drawn. One server (LibreOffice and
// Chromium) for the whole file; skipped, saying why, where LibreOffice is missing (never in CI).

import assert from 'node:assert/strict';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import { errorOf, startTestServer, type TestServer, usageOf } from '../helpers/start-app.ts';
import { layoutOf, type PageLayout, type TextRun } from '../helpers/pdf-layout.ts';
import { base64, chapters, odt } from '../helpers/office-fixtures.ts';
import { officeTest } from '../helpers/needs-office.ts';

const CM = 72 / 2.54;

async function pdfOf(response: Response): Promise<Uint8Array> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, `expected a PDF, got ${response.status}: ${Buffer.from(bytes.subarray(0, 400)).toString()}`);
  return bytes;
}

function runWith(page: PageLayout, text: string): TextRun {
  const run = page.runs.find((candidate) => candidate.text.includes(text));
  assert.ok(run, `no run with "${text}" among ${page.runs.map((r) => r.text).join(' | ')}`);
  return run;
}

function convert(server: TestServer, file: Uint8Array, filename: string, options: Record<string, unknown> = {}, data?: unknown) {
  return server.request('POST', '/v1/convert/office', { file: base64(file), filename, options, data });
}

/** A PDF made with pdf-lib: one page per label, `turned` pages shown turned 90 degrees. */
async function uploadedPdf(labels: string[], turned: number[] = []): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [index, label] of labels.entries()) {
    const page = doc.addPage([595.28, 841.89]);
    page.drawText(label, { x: 100, y: 700, size: 14, font });
    if (turned.includes(index)) page.setRotation(degrees(90));
  }
  return doc.save();
}

officeTest('headers and footers on pages Quire did not lay out', { timeout: 300_000 }, async (t) => {
  const server = await startTestServer(t, { officeConcurrency: 1 });
  const book = chapters(['Introduction', 'Methods', 'Results']);

  const plain = await layoutOf(await pdfOf(await convert(server, book, 'annual-report.odt')));

  await t.test('an office file: section from its bookmarks, title from its name, data, page X of Y; its content shrinks to clear the boxes', async () => {
    const pages = await layoutOf(
      await pdfOf(
        await convert(
          server,
          book,
          'annual-report.odt',
          { header: '<div style="text-align:right">{{title}} / {{section}}</div>', footer: 'Page {{page}} of {{pages}} for {{customer.name}}' },
          { customer: { name: 'Ada' } },
        ),
      ),
    );
    assert.equal(pages.length, 3);
    ['Introduction', 'Methods', 'Results'].forEach((section, index) => {
      const page = pages[index]!;
      const header = runWith(page, `annual-report / ${section}`);
      const footer = runWith(page, `Page ${index + 1} of 3 for Ada`);
      assert.ok(header.y > page.height - CM - 20 && header.y < page.height - CM, `header on page ${index + 1} sits 1cm from the top (${header.y})`);
      assert.ok(footer.y > CM && footer.y < CM + 15, `footer on page ${index + 1} sits 1cm from the bottom (${footer.y})`);
      // The chapter's own text: smaller than without the boxes, moved right (centred) and below the header.
      const before = runWith(plain[index]!, `Text of ${section}`);
      const after = runWith(page, `Text of ${section}`);
      assert.ok(after.size < before.size * 0.97 && after.size > before.size * 0.7, `shrunk: ${after.size} against ${before.size}`);
      assert.ok(after.x > before.x, `centred: x ${after.x} against ${before.x}`);
      assert.ok(after.y < header.y - 10, 'the body stays below the header');
    });
  });

  await t.test('header_footer_fit margin draws in the page’s own margin and leaves its content where it was', async () => {
    const pages = await layoutOf(
      await pdfOf(
        await convert(server, book, 'annual-report.odt', {
          footer: { html: 'Folio {{page}}', height: '20px' },
          header_footer_fit: 'margin',
          header_footer_margin: '0.5cm 2cm',
        }),
      ),
    );
    for (const [index, page] of pages.entries()) {
      const footer = runWith(page, `Folio ${index + 1}`);
      assert.ok(footer.y > 0.5 * CM && footer.y < 0.5 * CM + 15, `footer 0.5cm from the bottom (${footer.y})`);
      assert.ok(Math.abs(footer.x - 2 * CM) < 2, `footer 2cm from the left (${footer.x})`);
      const before = runWith(plain[index]!, 'Text of');
      const after = runWith(page, 'Text of');
      assert.deepEqual([after.x.toFixed(1), after.y.toFixed(1), after.size.toFixed(1)], [before.x.toFixed(1), before.y.toFixed(1), before.size.toFixed(1)]);
    }
  });

  await t.test('a header that measures empty is left out and the footer still lands on its pages', async () => {
    const pages = await layoutOf(
      await pdfOf(await convert(server, book, 'annual-report.odt', { header: '<span></span>', footer: 'Leaf {{page}} of {{pages}}' })),
    );
    assert.deepEqual(
      pages.map((page) => page.runs.filter((run) => run.text.startsWith('Leaf')).map((run) => run.text)),
      [['Leaf 1 of 3'], ['Leaf 2 of 3'], ['Leaf 3 of 3']],
    );
  });

  await t.test('several office files joined: each its own title and document_page, page numbers across', async () => {
    const response = await server.request('POST', '/v1/convert/office', {
      files: [
        { file: base64(book), filename: 'report.odt' },
        { file: base64(odt(['Appendix text'])), filename: 'appendix.odt' },
      ],
      merge: true,
      options: { footer: '{{title}} {{document_page}}/{{document_pages}}, page {{page}} of {{pages}}' },
    });
    const pages = await layoutOf(await pdfOf(response));
    assert.deepEqual(
      pages.map((page) =>
        page.runs
          .filter((run) => run.y < 2 * CM)
          .map((run) => run.text)
          .join(' ')
          .trim(),
      ),
      ['report 1/3, page 1 of 4', 'report 2/3, page 2 of 4', 'report 3/3, page 3 of 4', 'appendix 1/1, page 4 of 4'],
    );
  });

  await t.test(
    'a merge: uploaded and stored PDFs get the merge’s footer (a turned page along its shown bottom); header_footer: false leaves a source as it is',
    async () => {
      const stored = await server.request('POST', '/v1/pdf', { html: '<p>Stored page</p>', store: true, options: { wait_until: 'load' } });
      assert.equal(stored.status, 200);
      const documentId = stored.headers.get('x-document-id');
      assert.ok(documentId, 'the render was stored');
      const response = await server.request('POST', '/v1/pdf/merge', {
        sources: [
          { html: '<p>Cover</p>', options: { wait_until: 'load' }, header_footer: false },
          { pdf: base64(await uploadedPdf(['Upload one', 'Upload two turned'], [1])) },
          { document_id: documentId },
          { office: { file: base64(odt(['Office part'])), filename: 'part.odt' } },
        ],
        options: { footer: 'Merged {{page}}/{{pages}}' },
      });
      const pages = await layoutOf(await pdfOf(response));
      assert.equal(pages.length, 5);
      assert.ok(!pages[0]!.runs.some((run) => run.text.includes('Merged')), 'the cover opted out');
      const upright = runWith(pages[1]!, 'Merged 2/5');
      assert.ok(upright.y > CM && upright.y < CM + 15, `footer at the bottom (${upright.y})`);
      // Shown turned 90 degrees clockwise: the shown bottom is the right edge of the unturned page.
      const turned = runWith(pages[2]!, 'Merged 3/5');
      assert.ok(turned.x > 595.28 - CM - 15 && turned.x < 595.28 - CM + 1, `turned page: footer along the shown bottom (x ${turned.x})`);
      runWith(pages[3]!, 'Merged 4/5');
      runWith(pages[3]!, 'Stored page');
      runWith(pages[4]!, 'Merged 5/5');
      runWith(pages[4]!, 'Office part');
    },
  );

  await t.test('an office batch item draws its own footer with its data', async () => {
    const batch = await server.request('POST', '/v1/pdf/batch', {
      requests: [
        { office: { file: base64(book), filename: 'book.odt', options: { footer: '{{who}}: {{section}} {{page}}/{{pages}}' }, data: { who: 'Batch' } } },
      ],
    });
    assert.equal(batch.status, 200);
    const body = (await batch.json()) as { results: { status: string; document_id: string; error?: unknown }[] };
    assert.equal(body.results[0]!.status, 'succeeded', JSON.stringify(body.results[0]!.error));
    const pages = await layoutOf(await pdfOf(await server.request('GET', `/v1/documents/${body.results[0]!.document_id}`)));
    assert.deepEqual(
      pages.map((page) => runWith(page, 'Batch:').text),
      ['Batch: Introduction 1/3', 'Batch: Methods 2/3', 'Batch: Results 3/3'],
    );
  });

  await t.test('what cannot be drawn is a 400 naming the field, and nothing is charged', async () => {
    const before = await usageOf(server);
    const tall = await errorOf(await convert(server, book, 'a.odt', { header: { html: 'Tall', height: '15in' } }));
    assert.equal(tall.status, 400);
    assert.match(tall.detail, /options\.header/);
    assert.match(tall.detail, /less than half/);
    const notInMargin = await errorOf(await convert(server, book, 'a.odt', { footer: { html: 'x', height: '30in' }, header_footer_fit: 'margin' }));
    assert.equal(notInMargin.status, 400);
    assert.match(notInMargin.detail, /options\.footer/);
    const margin = await errorOf(await convert(server, book, 'a.odt', { header: 'x', header_footer_margin: 'wide' }));
    assert.equal(margin.status, 400);
    assert.match(margin.detail, /header_footer_margin/);
    const mergeTall = await errorOf(
      await server.request('POST', '/v1/pdf/merge', {
        sources: [{ pdf: base64(await uploadedPdf(['One'])) }],
        options: { header: { html: 'x', height: '20in' } },
      }),
    );
    assert.equal(mergeTall.status, 400);
    assert.match(mergeTall.detail, /options\.header/);
    assert.equal(await usageOf(server), before, 'refusals are not charged');
  });
});
