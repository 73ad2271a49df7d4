// POST /v1/pdf/transform against a real server: steps applied in the order given, read back with
// independent tools (pdfinfo, pdftotext, pdfimages, qpdf's JSON); split as a zip and as stored
// documents; forms filled and flattened; inputs refused before anything is charged.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unzipSync } from 'fflate';
import { PDFDocument, PDFHexString, PDFName, PDFNumber } from '@cantoo/pdf-lib';
import { createCanvas } from '@napi-rs/canvas';
import { errorOf, startTestServer, usageOf } from '../helpers/start-app.ts';
import { encryptedPdf, formPdf, formValues, imagesOf, pageRotations, pageTexts, pdfInfo, qdfText, textPdf } from '../helpers/pdf-cli.ts';

const b64 = (pdf: Uint8Array) => Buffer.from(pdf).toString('base64');
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

/** A PDF with two top-level bookmarks: "Intro" on page 1, "Chapter Two" on page 3 (of 5). */
async function bookmarkedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 1; i <= 5; i++) doc.addPage([300, 300]).drawText(`Page ${i}`, { x: 20, y: 150, size: 20 });
  const { context } = doc;
  const root = context.nextRef();
  const refs = [context.nextRef(), context.nextRef()];
  const entries: [string, number][] = [
    ['Intro', 0],
    ['Chapter Two', 2],
  ];
  entries.forEach(([title, page], i) => {
    const item = context.obj({}) as unknown as import('@cantoo/pdf-lib').PDFDict;
    item.set(PDFName.of('Title'), PDFHexString.fromText(title));
    item.set(PDFName.of('Parent'), root);
    item.set(PDFName.of('Dest'), context.obj([doc.getPage(page).ref, PDFName.of('Fit')]));
    if (i === 0) item.set(PDFName.of('Next'), refs[1]!);
    else item.set(PDFName.of('Prev'), refs[0]!);
    context.assign(refs[i]!, item);
  });
  const outlines = context.obj({}) as unknown as import('@cantoo/pdf-lib').PDFDict;
  outlines.set(PDFName.of('First'), refs[0]!);
  outlines.set(PDFName.of('Last'), refs[1]!);
  outlines.set(PDFName.of('Count'), PDFNumber.of(2));
  context.assign(root, outlines);
  doc.catalog.set(PDFName.of('Outlines'), root);
  return doc.save();
}

/** Two pages, each with a 1600 × 1200 noisy photo drawn at 4 × 3 inches (400 dpi). */
async function photoPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let p = 0; p < 2; p++) {
    const canvas = createCanvas(1600, 1200);
    const g = canvas.getContext('2d');
    const gradient = g.createLinearGradient(0, 0, 1600, 1200);
    gradient.addColorStop(0, '#204080');
    gradient.addColorStop(1, '#e0a040');
    g.fillStyle = gradient;
    g.fillRect(0, 0, 1600, 1200);
    for (let i = 0; i < 4000; i++) {
      g.fillStyle = `hsl(${(i * 37) % 360}, 60%, ${30 + (i % 40)}%)`;
      g.beginPath();
      g.arc((i * 97) % 1600, (i * 61) % 1200, 3 + (i % 9), 0, Math.PI * 2);
      g.fill();
    }
    const image = await doc.embedPng(canvas.toBuffer('image/png'));
    const page = doc.addPage([612, 792]);
    page.drawImage(image, { x: 18, y: 300, width: 288, height: 216 });
    page.drawText(`Photo page ${p + 1}`, { x: 18, y: 700, size: 18 });
  }
  return doc.save();
}

test('POST /v1/pdf/transform', async (t) => {
  const server = await startTestServer(t);
  const transform = (body: unknown) => server.request('POST', '/v1/pdf/transform', body);
  const four = await textPdf(['Page 1', 'Page 2', 'Page 3', 'Page 4']);

  await t.test('page steps compose in the declared order, charged one document', async () => {
    const before = await usageOf(server);
    const response = await transform({
      pdf: b64(four),
      steps: [
        { op: 'delete', pages: '2' },
        { op: 'reorder', order: '3, 1, 2' },
        { op: 'duplicate', pages: '1' },
        { op: 'rotate', angle: 90, pages: '2' },
        { op: 'insert_blank', after: 4 },
        { op: 'select', pages: '5, 1-4' },
      ],
      options: { metadata: { title: 'Reworked' } },
    });
    assert.equal(response.status, 200, await response.clone().text());
    const pdf = await bytesOf(response);
    assert.deepEqual(pageTexts(pdf), ['', 'Page 4', 'Page 4', 'Page 1', 'Page 3']);
    assert.deepEqual(pageRotations(pdf), [0, 0, 90, 0, 0]);
    assert.equal(pdfInfo(pdf).Title, 'Reworked');
    const steps = JSON.parse(response.headers.get('x-pdf-steps')!) as { op: string; pages: number; bytes_after: number }[];
    assert.deepEqual(
      steps.map((step) => [step.op, step.pages]),
      [
        ['delete', 3],
        ['reorder', 3],
        ['duplicate', 4],
        ['rotate', 4],
        ['insert_blank', 5],
        ['select', 5],
      ],
    );
    assert.equal(await usageOf(server), before + 1);
  });

  await t.test('split every 2 pages answers a zip of named parts, charged one document', async () => {
    const before = await usageOf(server);
    const response = await transform({
      pdf: b64(four),
      filename: 'report.pdf',
      steps: [
        { op: 'split', every: 3 },
        { op: 'rotate', angle: 180 },
      ],
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/zip');
    assert.match(response.headers.get('content-disposition')!, /report\.zip/);
    const files = unzipSync(await bytesOf(response));
    assert.deepEqual(Object.keys(files), ['report-1-3.pdf', 'report-4.pdf']);
    assert.deepEqual(pageTexts(files['report-1-3.pdf']!), ['Page 1', 'Page 2', 'Page 3']);
    assert.deepEqual(pageRotations(files['report-4.pdf']!), [180], 'the steps after a split apply to every part');
    assert.equal(await usageOf(server), before + 1);
  });

  await t.test('split by bookmarks keeps each part as a stored document', async () => {
    const response = await transform({ pdf: b64(await bookmarkedPdf()), steps: [{ op: 'split', by: 'bookmarks', output: 'documents' }] });
    assert.equal(response.status, 201);
    const body = (await response.json()) as { documents: { id: string; filename: string; pages: number }[] };
    assert.deepEqual(
      body.documents.map((part) => [part.filename, part.pages]),
      [
        ['1-Intro.pdf', 2],
        ['2-Chapter-Two.pdf', 3],
      ],
    );
    const second = await server.request('GET', `/v1/documents/${body.documents[1]!.id}`);
    assert.equal(second.status, 200);
    assert.deepEqual(pageTexts(await bytesOf(second)), ['Page 3', 'Page 4', 'Page 5']);
  });

  await t.test('fill_form sets text, check box, radio and choice; flatten makes them page content and removes the script', async () => {
    const form = await formPdf();
    const filled = await transform({
      pdf: b64(form),
      steps: [{ op: 'fill_form', fields: { 'applicant.name': 'Ada Lovelace', agree: true, size: 'L', color: 'blue' } }],
    });
    assert.equal(filled.status, 200, await filled.clone().text());
    const values = formValues(await bytesOf(filled));
    assert.equal(values['applicant.name'], 'Ada Lovelace');
    assert.equal(values.agree, '/Yes');
    // pdf-lib names a radio group's states by index, with /Opt giving their export values ("S", "L").
    assert.equal(values.size, '/1');
    assert.equal(values.color, 'blue');

    const flat = await transform({ pdf: b64(form), steps: [{ op: 'fill_form', fields: { 'applicant.name': 'Grace Hopper' }, flatten: true }] });
    assert.equal(flat.status, 200);
    const pdf = await bytesOf(flat);
    assert.deepEqual(formValues(pdf), {}, 'no fields are left');
    assert.match(pageTexts(pdf)[0]!, /Grace Hopper/);
    const qdf = qdfText(pdf);
    assert.doesNotMatch(qdf, /JavaScript|quire-test-script/);
    assert.doesNotMatch(qdf, /\/OpenAction/);
  });

  await t.test('fill_form lists every unknown name and wrong value in one 400, charging nothing', async () => {
    const before = await usageOf(server);
    const response = await transform({ pdf: b64(await formPdf()), steps: [{ op: 'fill_form', fields: { nope: 'x', agree: 'yes', size: 'M' } }] });
    const error = await errorOf(response);
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid_request');
    assert.match(error.detail, /"nope" is not a field/);
    assert.match(error.detail, /"agree" is a check box/);
    assert.match(error.detail, /"size" is a radio group: give one of "S", "L"/);
    assert.equal(await usageOf(server), before);
  });

  await t.test('compress downsamples photos and keeps text; lossless keeps the pixels', async () => {
    const photos = await photoPdf();
    const small = await transform({ pdf: b64(photos), steps: [{ op: 'compress', dpi: 100, quality: 60 }] });
    assert.equal(small.status, 200, await small.clone().text());
    const pdf = await bytesOf(small);
    assert.ok(pdf.byteLength < photos.byteLength / 2, `${pdf.byteLength} should be under half of ${photos.byteLength}`);
    const images = imagesOf(pdf);
    assert.equal(images.length, 2);
    assert.ok(
      images.every((image) => image.width <= 420 && image.enc === 'jpeg'),
      JSON.stringify(images),
    );
    assert.deepEqual(pageTexts(pdf), ['Photo page 1', 'Photo page 2']);
    const lossless = await bytesOf(await transform({ pdf: b64(photos), steps: [{ op: 'compress', mode: 'lossless' }] }));
    assert.ok(lossless.byteLength <= photos.byteLength);
    assert.deepEqual(
      imagesOf(lossless).map((image) => [image.width, image.height]),
      [
        [1600, 1200],
        [1600, 1200],
      ],
    );
  });

  await t.test('an encrypted input needs its password; a multipart upload works the same', async () => {
    const locked = encryptedPdf(four, 'open-sesame');
    const before = await usageOf(server);
    const missing = await errorOf(await transform({ pdf: b64(locked), steps: [{ op: 'select', pages: '1' }] }));
    assert.deepEqual([missing.status, missing.code], [422, 'password_required']);
    const wrong = await errorOf(await transform({ pdf: b64(locked), password: 'nope', steps: [{ op: 'select', pages: '1' }] }));
    assert.deepEqual([wrong.status, wrong.code], [422, 'password_incorrect']);
    assert.equal(await usageOf(server), before, 'refused inputs are not charged');
    const form = new FormData();
    form.set('file', new Blob([Buffer.from(locked)], { type: 'application/pdf' }), 'locked.pdf');
    form.set('password', 'open-sesame');
    form.set('steps', JSON.stringify([{ op: 'select', pages: '2-3' }]));
    const opened = await fetch(`${server.url}/v1/pdf/transform`, { method: 'POST', headers: { authorization: `Bearer ${server.key.key}` }, body: form });
    assert.equal(opened.status, 200, await opened.clone().text());
    assert.match(opened.headers.get('content-disposition') ?? '', /locked\.pdf/);
    const pdf = await bytesOf(opened);
    assert.deepEqual(pageTexts(pdf), ['Page 2', 'Page 3']);
    assert.equal(pdfInfo(pdf).Encrypted, 'no');
  });

  await t.test('the final steps come with the options (PDF/A on the result); a zip of parts refuses them', async () => {
    const response = await transform({ pdf: b64(four), steps: [{ op: 'select', pages: '1' }], options: { pdf_a: '2b' } });
    assert.equal(response.status, 200, await response.clone().text());
    const pdf = await bytesOf(response);
    assert.match(Buffer.from(pdf).toString('latin1'), /pdfaid:part[>="]+2/);
    assert.deepEqual(pageTexts(pdf), ['Page 1']);
    const zipped = await errorOf(await transform({ pdf: b64(four), steps: [{ op: 'split', every: 2 }], options: { pdf_a: '2b' } }));
    assert.equal(zipped.status, 400);
    assert.match(zipped.detail, /options\.pdf_a applies to a PDF, not a zip/);
  });

  await t.test('a stored document of the key is a source; another key’s is 404; a page past the end is 400', async () => {
    const stored = await transform({ pdf: b64(four), steps: [{ op: 'select', pages: '1-2' }], store: true });
    const id = stored.headers.get('x-document-id')!;
    assert.match(id, /^doc_/);
    const again = await transform({ document_id: id, steps: [{ op: 'reorder', order: '2,1' }] });
    assert.deepEqual(pageTexts(await bytesOf(again)), ['Page 2', 'Page 1']);
    const other = await server.createKey('business');
    const foreign = await server.request(
      'POST',
      '/v1/pdf/transform',
      { document_id: id, steps: [{ op: 'flatten' }] },
      { authorization: `Bearer ${other.key}` },
    );
    const refused = await errorOf(foreign);
    assert.deepEqual([refused.status, refused.code], [404, 'document_not_found']);
    const past = await errorOf(await transform({ pdf: b64(four), steps: [{ op: 'rotate', angle: 90, pages: '9' }] }));
    assert.equal(past.status, 400);
    assert.match(past.detail, /steps\[0\]\.pages names page 9, but the document has 4 pages/);
  });
});
