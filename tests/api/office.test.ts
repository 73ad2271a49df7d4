// POST /v1/convert/office against a real LibreOffice (the warm pool): files written by the tests
// (docx, xlsx, odt, odp, rtf, csv, txt), read back as PDFs (pages, text, size, PDF/A identification),
// the toolbox on top, merge, batch items and merge sources, every refusal before any charge, the
// safety proofs (no macro, no link followed to the canary, a private address or /etc/passwd), and
// a pool that survives a timeout and a crash while the other process keeps converting.
// One server (two LibreOffice processes) for the whole file: LibreOffice takes seconds to start.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { bearer, errorOf, startTestServer, usageOf } from '../helpers/start-app.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { officeTest } from '../helpers/needs-office.ts';
import { base64, odp, odt, rtf, xlsx } from '../helpers/office-fixtures.ts';
import officeCrypto from 'officecrypto-tool';
import { threePages, convert, checkLinksAndMacros, postOnNewConnection, officeRestarts, hasJobFile, zipBomb } from '../helpers/office-checks.ts';
import { appears, waitFor } from '../helpers/wait-for.ts';

officeTest('POST /v1/convert/office', { timeout: 300_000 }, async (t) => {
  const watch = await mkdtemp(path.join(os.tmpdir(), 'quire-office-hot-'));
  t.after(() => rm(watch, { recursive: true, force: true }));
  const server = await startTestServer(t, { officeConcurrency: 2, watchDir: watch }, { hotFolderIntervalMs: 100 });

  await t.test('a 3-page docx as JSON becomes a 3-page PDF with its text, charged one document', async () => {
    const before = await usageOf(server);
    const { response, bytes, status, text } = await convert(server, { file: base64(threePages), filename: 'report.docx' });
    assert.equal(status, 200, text());
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    assert.match(response.headers.get('content-disposition') ?? '', /report\.pdf/);
    assert.equal(Number(response.headers.get('x-service-usage')), before + 1);
    const pdf = await inspectPdf(bytes);
    assert.equal(pdf.pages.length, 3);
    assert.match(pdf.pages[0]!.text, /First page text/);
    assert.match(pdf.pages[2]!.text, /Third page text/);
    assert.ok(pdf.pages[0]!.height > pdf.pages[0]!.width, 'portrait');
  });

  await t.test('multipart: an xlsx with landscape and single_page_sheets as form fields', async () => {
    const rows: (string | number)[][] = [['Item', 'Amount']];
    for (let i = 1; i <= 200; i++) rows.push([`Row ${i}`, i * 3]);
    const form = new FormData();
    form.set('file', new Blob([Buffer.from(xlsx(rows))]), 'figures.xlsx');
    form.set('landscape', 'true');
    const response = await fetch(`${server.url}/v1/convert/office`, { method: 'POST', body: form, headers: bearer(server.key) });
    const bytes = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.status, 200, Buffer.from(bytes).toString());
    const pdf = await inspectPdf(bytes);
    assert.ok(pdf.pages[0]!.width > pdf.pages[0]!.height, 'landscape');
    assert.ok(pdf.pages.length > 1, '200 rows need several landscape pages');
    assert.match(pdf.text, /Row 200/);

    const single = new FormData();
    single.set('file', new Blob([Buffer.from(xlsx(rows))]), 'figures.xlsx');
    single.set('options', JSON.stringify({ single_page_sheets: true }));
    const one = await fetch(`${server.url}/v1/convert/office`, { method: 'POST', body: single, headers: bearer(server.key) });
    assert.equal(one.status, 200);
    assert.equal((await inspectPdf(new Uint8Array(await one.arrayBuffer()))).pages.length, 1, 'the sheet on one page');
  });

  await t.test('page_ranges keeps those pages; a range past the end is 400 and not charged', async () => {
    const { bytes, status } = await convert(server, { file: base64(threePages), filename: 'report.docx', options: { page_ranges: '2-3' } });
    assert.equal(status, 200);
    const pdf = await inspectPdf(bytes);
    assert.deepEqual(
      pdf.pages.map((page) => /Second|Third/.exec(page.text)?.[0]),
      ['Second', 'Third'],
    );
    const before = await usageOf(server);
    const past = await server.request('POST', '/v1/convert/office', { file: base64(threePages), filename: 'report.docx', options: { page_ranges: '7-9' } });
    const error = await errorOf(past);
    assert.equal(error.status, 400);
    assert.match(error.detail, /page_ranges/);
    assert.equal(await usageOf(server), before);
  });

  await t.test('pdf_a writes a PDF/A identification into the XMP metadata', async () => {
    // The PDF/A step (services/output/pdf-a-step.ts) writes the level asked, on LibreOffice's plain export.
    for (const [level, part, conformance] of [
      ['PDF/A-1b', '1', /B/],
      ['PDF/A-2b', '2', /B/],
      ['PDF/A-3b', '3', /B/],
    ] as const) {
      const { bytes, status } = await convert(server, { file: base64(odt(['Archived text'])), filename: 'archive.odt', options: { pdf_a: level } });
      assert.equal(status, 200);
      const xmp = /<x:xmpmeta[\s\S]*?<\/x:xmpmeta>/.exec(Buffer.from(bytes).toString('latin1'))?.[0] ?? '';
      assert.match(xmp, new RegExp(`<pdfaid:part>${part}</pdfaid:part>`), level);
      assert.match(/<pdfaid:conformance>(.)<\/pdfaid:conformance>/.exec(xmp)?.[1] ?? '', conformance, level);
    }
    const mixed = await server.request('POST', '/v1/convert/office', {
      file: base64(odt(['x'])),
      filename: 'a.odt',
      options: { pdf_a: 'PDF/A-2b', encrypt: { owner_password: 'owner' } },
    });
    const error = await errorOf(mixed);
    assert.equal(error.status, 400);
    assert.match(error.detail, /options\.encrypt cannot be combined with options\.pdf_a/);
  });

  await t.test('the toolbox applies: metadata title, watermark text, encryption', async () => {
    const marked = await convert(server, {
      file: base64(rtf(['An RTF letter'])),
      filename: 'letter.rtf',
      options: { metadata: { title: 'Converted letter' }, watermark: { text: 'DRAFT' } },
    });
    assert.equal(marked.status, 200);
    const pdf = await inspectPdf(marked.bytes);
    assert.match(pdf.text, /An RTF letter/);
    assert.match(pdf.text, /DRAFT/);
    assert.equal((await PDFDocument.load(marked.bytes, { updateMetadata: false })).getTitle(), 'Converted letter');
    const locked = await convert(server, {
      file: base64(rtf(['Locked letter'])),
      filename: 'letter.rtf',
      options: { encrypt: { owner_password: 'owner-secret' } },
    });
    assert.equal(locked.status, 200);
    assert.ok((await PDFDocument.load(locked.bytes, { ignoreEncryption: true, updateMetadata: false })).isEncrypted);
  });

  await t.test('merge: several files of different kinds become one PDF in order, one document each; store keeps it', async () => {
    const before = await usageOf(server);
    const files = [
      { file: base64(threePages), filename: 'a.docx' },
      { file: base64(odp(['Slide title one', 'Slide title two'])), filename: 'b.odp' },
      { file: base64(Buffer.from('name,city\nAda,London\nGrace,Arlington\n')), filename: 'c.csv' },
      { file: base64(Buffer.from('Plain text line\n')), filename: 'd.txt' },
    ];
    const { response, bytes, status, text } = await convert(server, { files, merge: true, store: true, output_filename: 'bundle.pdf' });
    assert.equal(status, 200, text());
    assert.equal(Number(response.headers.get('x-service-usage')), before + 4);
    const pdf = await inspectPdf(bytes);
    assert.equal(pdf.pages.length, 3 + 2 + 1 + 1);
    assert.match(pdf.pages[3]!.text, /Slide title one/);
    assert.ok(pdf.pages[3]!.width > pdf.pages[3]!.height, 'slides are wide');
    assert.match(pdf.pages[5]!.text, /Grace/);
    assert.match(pdf.pages[6]!.text, /Plain text line/);
    const id = response.headers.get('x-document-id');
    assert.match(id ?? '', /^doc_/);
    const stored = await server.request('GET', `/v1/documents/${id}`);
    assert.equal(stored.status, 200);
    assert.match(stored.headers.get('content-disposition') ?? '', /bundle\.pdf/);

    const unasked = await errorOf(await server.request('POST', '/v1/convert/office', { files }));
    assert.equal(unasked.status, 400);
    assert.match(unasked.detail, /merge: true/);
  });

  await t.test('an office file as a batch item and as a merge source', async () => {
    const batch = await server.request('POST', '/v1/pdf/batch', {
      requests: [{ office: { file: base64(odt(['Batch office item'])), filename: 'item.odt' }, filename: 'item.pdf' }, { html: '<p>Batch html item</p>' }],
    });
    assert.equal(batch.status, 200);
    const body = (await batch.json()) as { results: { status: string; document_id: string; error?: unknown }[] };
    assert.equal(body.results[0]!.status, 'succeeded', JSON.stringify(body.results[0]!.error));
    const document = await server.request('GET', `/v1/documents/${body.results[0]!.document_id}`);
    assert.match((await inspectPdf(new Uint8Array(await document.arrayBuffer()))).text, /Batch office item/);

    const before = await usageOf(server);
    const merged = await server.request('POST', '/v1/pdf/merge', {
      sources: [{ html: '<p>Cover page</p>' }, { office: { file: base64(threePages), filename: 'r.docx' }, page_ranges: '3' }],
    });
    const bytes = new Uint8Array(await merged.arrayBuffer());
    assert.equal(merged.status, 200, Buffer.from(bytes).toString());
    assert.equal(await usageOf(server), before + 2);
    const pdf = await inspectPdf(bytes);
    assert.equal(pdf.pages.length, 2);
    assert.match(pdf.pages[1]!.text, /Third page text/);
  });

  await t.test('bad files are 4xx naming the problem, and nothing is charged', async () => {
    const before = await usageOf(server);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const cases: [unknown, number, string, RegExp][] = [
      [{ file: base64(threePages), filename: 'report.exe' }, 400, 'unsupported_file_type', /report\.exe.*\.docx/],
      [{ file: base64(png), filename: 'photo.docx' }, 422, 'office_conversion_failed', /photo\.docx.*not a Word document/],
      [{ file: base64(threePages.subarray(0, 200)), filename: 'cut.docx' }, 422, 'office_conversion_failed', /cut\.docx.*damaged/],
      [{ file: base64(Buffer.from('PK\u0003\u0004 not really a zip')), filename: 'fake.xlsx' }, 422, 'office_conversion_failed', /fake\.xlsx/],
      [{ file: base64(zipBomb()), filename: 'bomb.docx' }, 413, 'payload_too_large', /bomb\.docx.*zip bomb/],
      [{ file: base64(threePages) }, 400, 'invalid_request', /filename/],
    ];
    for (const [body, status, code, detail] of cases) {
      const error = await errorOf(await server.request('POST', '/v1/convert/office', body));
      assert.deepEqual([error.status, error.code], [status, code], error.detail);
      assert.match(error.detail, detail);
    }
    const encrypted = officeCrypto.encrypt(Buffer.from(threePages), { password: 'opensesame' });
    const locked = await errorOf(await server.request('POST', '/v1/convert/office', { file: base64(encrypted), filename: 'locked.docx' }));
    assert.deepEqual([locked.status, locked.code], [422, 'password_required']);
    assert.match(locked.detail, /locked\.docx.*options\.password/);
    const wrong = await errorOf(
      await server.request('POST', '/v1/convert/office', { file: base64(encrypted), filename: 'locked.docx', options: { password: 'nope' } }),
    );
    assert.equal(wrong.code, 'password_incorrect');
    assert.equal(await usageOf(server), before, 'no failure was charged');
    const opened = await convert(server, { file: base64(encrypted), filename: 'locked.docx', options: { password: 'opensesame' } });
    assert.equal(opened.status, 200);
    assert.equal((await inspectPdf(opened.bytes)).pages.length, 3);
  });

  await t.test('macros never run and links never reach the network or the file system', async () => {
    await checkLinksAndMacros(t, server);
  });

  await t.test('the hot folder takes office files by extension', async () => {
    await writeFile(path.join(watch, 'settings.json'), JSON.stringify({ key_id: server.key.id }));
    await writeFile(path.join(watch, 'in', 'dropped.docx'), threePages);
    await writeFile(path.join(watch, 'in', 'fake.xlsx'), Buffer.from('just text'));
    await appears(path.join(watch, 'out', 'dropped.pdf'));
    assert.equal((await inspectPdf(await readFile(path.join(watch, 'out', 'dropped.pdf')))).pages.length, 3);
    await appears(path.join(watch, 'failed', 'fake.json'));
    const failure = JSON.parse(await readFile(path.join(watch, 'failed', 'fake.json'), 'utf8')) as { code: string; detail: string };
    assert.equal(failure.code, 'office_conversion_failed');
    assert.match(failure.detail, /fake\.xlsx.*not an Excel workbook/);
    // The error file comes first, then the input is moved beside it, under its own name.
    await appears(path.join(watch, 'failed', 'fake.xlsx'));
  });

  await t.test('a conversion past its budget is 504, its process restarts, and the other process keeps converting', async () => {
    const before = await usageOf(server);
    const restarts = await officeRestarts(server);
    // Some 40,000 rows of CSV: thousands of pages, far beyond a 1 s budget.
    const slow = Buffer.from(Array.from({ length: 40_000 }, (_, i) => `row ${i},${'x'.repeat(60)},${i * 7}`).join('\n'));
    const [late, quick] = await Promise.all([
      postOnNewConnection(server, { file: base64(slow), filename: 'huge.csv', options: { timeout_ms: 1000 } }),
      postOnNewConnection(server, { file: base64(threePages), filename: 'quick.docx' }).then(async (response) => ({
        status: response.status,
        bytes: new Uint8Array(await response.arrayBuffer()),
      })),
    ]);
    const error = await errorOf(late);
    assert.deepEqual([error.status, error.code], [504, 'render_timeout']);
    assert.equal(quick.status, 200);
    assert.equal((await inspectPdf(quick.bytes)).pages.length, 3);
    assert.equal(await usageOf(server), before + 1, 'only the quick one was charged');
    assert.equal(await officeRestarts(server), restarts + 1);
    const after = await convert(server, { file: base64(threePages), filename: 'after.docx' });
    assert.equal(after.status, 200);
  });

  await t.test('a LibreOffice that dies mid-conversion fails that call only; the next one converts', async () => {
    const before = await usageOf(server);
    const slow = Buffer.from(Array.from({ length: 80_000 }, (_, i) => `row ${i},${'y'.repeat(60)}`).join('\n'));
    const pending = postOnNewConnection(server, { file: base64(slow), filename: 'crash.csv' });
    // Once the file is handed over, kill every LibreOffice of this server (found by its own profile folders).
    await waitFor(() => hasJobFile(server), 'the conversion to write its job folder');
    const pids = execFileSync('pgrep', ['-f', `${server.dataDir}/office/profile-`], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean);
    assert.ok(pids.length > 0, 'found our soffice processes');
    for (const pid of pids) {
      // One may end between pgrep and the kill (a replaced process finishing its exit, a launcher
      // handing over to soffice.bin): gone is what the kill wants (ESRCH, seen once in CI).
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
    }
    const error = await errorOf(await pending);
    assert.deepEqual([error.status, error.code], [422, 'office_conversion_failed']);
    assert.match(error.detail, /stopped/);
    const next = await convert(server, { file: base64(threePages), filename: 'next.docx' });
    assert.equal(next.status, 200);
    assert.equal(await usageOf(server), before + 1);
  });

  await t.test('the OpenAPI document describes the route with both bodies', async () => {
    const document = (await (await server.requestWithoutKey('GET', '/openapi.json')).json()) as {
      paths: Record<string, { post?: { requestBody: { content: Record<string, { schema: { properties: Record<string, { format?: string }> } }> } } }>;
    };
    const content = document.paths['/v1/convert/office']!.post!.requestBody.content;
    assert.deepEqual(Object.keys(content).sort(), ['application/json', 'multipart/form-data']);
    assert.equal(content['multipart/form-data']!.schema.properties.file!.format, 'binary');
    assert.ok(content['application/json']!.schema.properties.options, 'options documented');
  });

  await t.test('/health reports LibreOffice', async () => {
    const health = (await (await server.requestWithoutKey('GET', '/health')).json()) as { office: { available: boolean; version: string; processes: number } };
    assert.equal(health.office.available, true);
    assert.match(health.office.version, /LibreOffice \d/);
    assert.equal(health.office.processes, 2);
  });
});
