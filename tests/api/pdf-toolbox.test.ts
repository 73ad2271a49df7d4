// The post-processing render options against a real Chromium, each read back from the PDF:
// metadata (information dictionary and XMP), outline entries, watermark text and images,
// AES-256 encryption (checked by qpdf, independently of the library that wrote it), custom
// paper, wait_for_function.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type PDFArray, PDFDocument, PDFName, PDFRawStream, PDFDict } from 'pdf-lib';
import { startTestServer, errorOf } from '../helpers/start-app.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { renderPdf, ARTICLE, outlineOf, xmpOf, onePixelPng, qpdf, decrypt, hasQpdf } from '../helpers/pdf-toolbox.ts';

test('post-processing options', async (t) => {
  const server = await startTestServer(t);

  await t.test('metadata goes to the information dictionary and XMP; the title defaults to the page <title>', async () => {
    const bytes = await renderPdf(server, {
      html: ARTICLE,
      options: { wait_until: 'load', metadata: { author: 'Ada & Co', subject: 'Q3', keywords: ['finance', 'q3'], creator: 'Ledger' } },
    });
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    assert.equal(pdf.getTitle(), 'Quarterly report');
    assert.equal(pdf.getAuthor(), 'Ada & Co');
    assert.equal(pdf.getSubject(), 'Q3');
    assert.match(pdf.getKeywords() ?? '', /finance.*q3/);
    assert.equal(pdf.getCreator(), 'Ledger');
    const xmp = xmpOf(pdf);
    assert.match(xmp, /<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Quarterly report<\/rdf:li>/);
    assert.match(xmp, /<dc:creator><rdf:Seq><rdf:li>Ada &#38; Co<\/rdf:li>/);
    assert.match(xmp, /<rdf:li>finance<\/rdf:li><rdf:li>q3<\/rdf:li>/);
    assert.match(xmp, /<xmp:CreatorTool>Ledger<\/xmp:CreatorTool>/);
  });

  await t.test('metadata.title replaces the page <title>', async () => {
    const bytes = await renderPdf(server, { html: ARTICLE, options: { wait_until: 'load', metadata: { title: 'Given title' } } });
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    assert.equal(pdf.getTitle(), 'Given title');
    assert.match(xmpOf(pdf), /Given title/);
  });

  await t.test('outline: true makes nested bookmarks from the headings that open their pages', async () => {
    const outline = await outlineOf(await renderPdf(server, { html: ARTICLE, options: { wait_until: 'load', outline: true } }));
    assert.deepEqual(
      outline.map((entry) => [entry.title, entry.page, entry.children.map((child) => [child.title, child.page])]),
      [
        [
          'Overview',
          1,
          [
            ['Revenue', 1],
            ['Costs', 1],
          ],
        ],
        ['Outlook', 2, [['Risks', 2]]],
      ],
    );
    const plain = await outlineOf(await renderPdf(server, { html: ARTICLE, options: { wait_until: 'load' } }));
    assert.deepEqual(plain, []);
  });

  await t.test('a text watermark stays text, on the pages asked for only', async () => {
    const html = '<p>One</p><p style="break-before: page">Two</p><p style="break-before: page">Three</p>';
    const bytes = await renderPdf(server, {
      html,
      options: { wait_until: 'load', watermark: { text: 'CONFIDENTIAL', pages: '1, 3', opacity: 0.3, rotate: 30, color: '#ff0000', font_size: 50 } },
    });
    const { pages } = await inspectPdf(bytes);
    assert.equal(pages.length, 3);
    assert.match(pages[0]!.text, /CONFIDENTIAL/);
    assert.doesNotMatch(pages[1]!.text, /CONFIDENTIAL/);
    assert.match(pages[2]!.text, /CONFIDENTIAL/);
    assert.match(pages[1]!.text, /Two/);
  });

  await t.test('layer "under" draws the watermark before the page content', async () => {
    const bytes = await renderPdf(server, { html: '<p>Body text</p>', options: { wait_until: 'load', watermark: { text: 'DRAFT', layer: 'under' } } });
    const pdf = await PDFDocument.load(bytes);
    const page = pdf.getPages()[0]!;
    const contents = page.node.Contents();
    assert.ok(contents && 'size' in contents, 'the page has several content streams');
    const first = pdf.context.lookup((contents as PDFArray).get(0)) as PDFRawStream;
    const { inflateSync } = await import('node:zlib');
    const data = first.dict.get(PDFName.of('Filter')) ? inflateSync(first.contents).toString('latin1') : Buffer.from(first.contents).toString('latin1');
    assert.match(data, /Tj|TJ/, 'the first content stream draws the watermark text');
    assert.match((await inspectPdf(bytes)).text, /DRAFT/);
  });

  await t.test('an image watermark (PNG data: URI) is drawn as an image on every page', async () => {
    const image = onePixelPng(40, 20, [255, 0, 0]);
    const bytes = await renderPdf(server, {
      html: '<p>A</p><p style="break-before: page">B</p>',
      options: { wait_until: 'load', watermark: { image, opacity: 0.5, position: 'bottom-right', rotate: 0 } },
    });
    const pdf = await PDFDocument.load(bytes);
    for (const page of pdf.getPages()) {
      const xobjects = page.node.Resources()?.lookup(PDFName.of('XObject'));
      assert.ok(xobjects instanceof PDFDict, 'the page has XObjects');
      const images = [...xobjects.entries()]
        .map(([, ref]) => pdf.context.lookup(ref))
        .filter((object) => object instanceof PDFRawStream && object.dict.get(PDFName.of('Subtype'))?.toString() === '/Image') as PDFRawStream[];
      assert.ok(
        images.some((img) => img.dict.get(PDFName.of('Width'))?.toString() === '40' && img.dict.get(PDFName.of('Height'))?.toString() === '20'),
        'the 40x20 image is on the page',
      );
    }
  });

  await t.test('an image that does not decode is a 400 naming the field', async () => {
    const response = await server.render({ html: '<p>x</p>', options: { wait_until: 'load', watermark: { image: 'data:image/png;base64,AAAA' } } });
    assert.equal(response.status, 400);
    const error = await errorOf(response);
    assert.equal(error.code, 'invalid_request');
    assert.match(error.detail, /options\.watermark\.image/);
  });

  await t.test(
    `encrypt writes AES-256 that qpdf opens with either password${hasQpdf ? '' : ' (skipped: qpdf is not installed; npm run setup installs it)'}`,
    { skip: !hasQpdf },
    async () => {
      const bytes = await renderPdf(server, {
        html: '<title>Secret</title><p>Classified</p>',
        options: {
          wait_until: 'load',
          metadata: { author: 'A' },
          watermark: { text: 'COPY' },
          encrypt: { owner_password: 'owner-pw', user_password: 'user-pw', permissions: { print: 'low', copy: true } },
        },
      });
      const noPassword = qpdf(['--check'], bytes);
      assert.notEqual(noPassword.status, 0, 'without a password qpdf cannot open it');
      assert.match(noPassword.out, /password/i);
      const check = qpdf(['--check', '--password=user-pw'], bytes);
      assert.equal(check.status, 0, check.out);
      assert.match(check.out, /No syntax or stream encoding errors/);
      const shown = qpdf(['--show-encryption', '--password=owner-pw'], bytes);
      assert.equal(shown.status, 0, shown.out);
      assert.match(shown.out, /R = 6/);
      assert.match(shown.out, /Supplied password is owner password/);
      assert.match(shown.out, /file encryption method: AESv3/);
      assert.match(shown.out, /print low resolution: allowed/);
      assert.match(shown.out, /print high resolution: not allowed/);
      assert.match(shown.out, /extract for any purpose: allowed/);
      assert.match(shown.out, /modify other: not allowed/);
      const text = (await inspectPdf(decrypt(bytes, 'user-pw'))).text;
      assert.match(text, /Classified/);
      assert.match(text, /COPY/);
    },
  );

  await t.test('width and height set a custom paper size', async () => {
    const { pages } = await inspectPdf(await renderPdf(server, { html: '<p>x</p>', options: { wait_until: 'load', width: '100mm', height: '6in' } }));
    assert.ok(Math.abs(pages[0]!.width - 283.46) < 2, `width ${pages[0]!.width}`);
    assert.ok(Math.abs(pages[0]!.height - 432) < 2, `height ${pages[0]!.height}`);
  });

  await t.test('wait_for_function holds the print until the expression is truthy', async () => {
    const html =
      '<p id="out">waiting</p><script>setTimeout(() => { document.getElementById("out").textContent = "ready now"; window.done = true; }, 300)</script>';
    const { text } = await inspectPdf(await renderPdf(server, { html, options: { wait_until: 'load', wait_for_function: 'window.done === true' } }));
    assert.match(text, /ready now/);
  });

  await t.test('wait_for_function works on the virtual clock of networkidle0 too (the page timers run while it polls)', async () => {
    const html =
      '<p id="out">waiting</p><script>setTimeout(() => { document.getElementById("out").textContent = "late but ready"; window.late = true; }, 2000)</script>';
    const { text } = await inspectPdf(
      await renderPdf(server, { html, options: { wait_until: 'networkidle0', wait_clock: 'virtual', wait_for_function: 'window.late === true' } }),
    );
    assert.match(text, /late but ready/);
    const awaited = await renderPdf(server, {
      html: '<p>promise</p>',
      options: { wait_until: 'networkidle0', wait_clock: 'virtual', wait_for_function: 'new Promise((resolve) => setTimeout(() => resolve(true), 1500))' },
    });
    assert.match((await inspectPdf(awaited)).text, /promise/);
  });

  await t.test('a wait_for_function that never comes true runs into timeout_ms (504)', async () => {
    const error = await errorOf(await server.render({ html: '<p>x</p>', options: { wait_until: 'load', timeout_ms: 1500, wait_for_function: 'false' } }));
    assert.equal(error.status, 504);
    assert.equal(error.code, 'render_timeout');
    assert.match(error.detail, /wait_for_function/);
  });

  await t.test('a wait_for_function that throws is a 400', async () => {
    const response = await server.render({ html: '<p>x</p>', options: { wait_until: 'load', wait_for_function: 'nope.nothing' } });
    assert.equal(response.status, 400);
    assert.match((await errorOf(response)).detail, /wait_for_function/);
  });

  await t.test('every way of rendering applies them: templates, batches, the playground and the admin preview', async () => {
    const mark = { watermark: { text: 'EVERYWHERE' }, metadata: { author: 'Everywhere' } };
    const check = async (bytes: Uint8Array, what: string) => {
      assert.match((await inspectPdf(bytes)).text, /EVERYWHERE/, `${what}: watermark`);
      assert.equal((await PDFDocument.load(bytes, { updateMetadata: false })).getAuthor(), 'Everywhere', `${what}: author`);
    };
    const created = (await (await server.request('POST', '/v1/templates', { name: 't', html: '<p>Hello {{name}}</p>' })).json()) as { template_id: string };
    await check(await renderPdf(server, { template_id: created.template_id, data: { name: 'Ada' }, options: { wait_until: 'load', ...mark } }), 'template');
    const playground = await server.requestWithoutKey('POST', '/v1/playground/pdf', { html: '<p>x</p>', options: { wait_until: 'load', ...mark } });
    assert.equal(playground.status, 200);
    await check(new Uint8Array(await playground.arrayBuffer()), 'playground');
    const preview = await server.admin('POST', '/admin/v1/templates/preview', {
      html: '<p>{{a}}</p>',
      data: { a: 'b' },
      options: { wait_until: 'load', ...mark },
    });
    assert.equal(preview.status, 200);
    await check(new Uint8Array(await preview.arrayBuffer()), 'admin preview');
    const batch = (await (
      await server.request('POST', '/v1/pdf/batch', { requests: [{ html: '<p>one</p>' }], options: { wait_until: 'load', ...mark } })
    ).json()) as { results: { document_id: string }[] };
    const stored = await server.request('GET', `/v1/documents/${batch.results[0]!.document_id}`);
    assert.equal(stored.status, 200);
    await check(new Uint8Array(await stored.arrayBuffer()), 'batch item');
  });
});
