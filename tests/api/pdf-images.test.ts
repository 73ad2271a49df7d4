// POST /v1/pdf/images, GET /v1/documents/{id}/thumbnail and the admin's: pages drawn at a DPI or
// a width, sized as pdftoppm sizes them, with a pixel of known colour where the sample's image
// lies; one image, a zip or a JSON list; PNG, JPEG, WebP; one document charged per call, nothing
// when refused; page bombs refused with 413 before anything is drawn.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { decodeJpeg, decodePng, webpSize } from '../helpers/image.ts';
import { blankPages, encryptWithQpdf, SAMPLE, samplePdf } from '../helpers/pdf-samples.ts';
import { errorOf, startTestServer, usageOf } from '../helpers/start-app.ts';

const run = promisify(execFile);

/** The pixel size pdftoppm gives each page of the bytes at `dpi`. */
async function pdftoppmSizes(bytes: Uint8Array, dpi: number): Promise<{ width: number; height: number }[]> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'quire-ppm-'));
  try {
    await writeFile(path.join(folder, 'in.pdf'), bytes);
    await run('pdftoppm', ['-r', String(dpi), '-png', path.join(folder, 'in.pdf'), path.join(folder, 'page')]);
    const files = (await readdir(folder)).filter((name) => name.endsWith('.png')).sort();
    const { readFile } = await import('node:fs/promises');
    return Promise.all(files.map(async (name) => decodePng(new Uint8Array(await readFile(path.join(folder, name))))));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

test('POST /v1/pdf/images draws pages as pdftoppm sizes them, with the sample’s colours where they are', async (t) => {
  const server = await startTestServer(t);
  const pdf = await samplePdf();
  const before = await usageOf(server);

  const one = await server.request('POST', '/v1/pdf/images', { pdf: base64(pdf), pages: '1', dpi: 144, output: 'image' });
  assert.equal(one.status, 200, await one.clone().text());
  assert.equal(one.headers.get('content-type'), 'image/png');
  assert.equal(Number(one.headers.get('x-service-usage')), before + 1, 'one document per call');
  const page = decodePng(new Uint8Array(await one.arrayBuffer()));
  const reference = await pdftoppmSizes(pdf, 144);
  assert.deepEqual({ width: page.width, height: page.height }, { width: reference[0]!.width, height: reference[0]!.height });
  // The image spans x 100..250 pt and y 500..575 pt from the bottom; at 144 dpi a point is 2 pixels.
  const pixel = (x: number, y: number) => [...page.pixel(x, y)].slice(0, 3);
  const top = Math.round((SAMPLE.pages[0]!.height - 537) * 2);
  const near = (got: number[], want: number[]) => got.every((value, i) => Math.abs(value - want[i]!) <= 8);
  assert.ok(near(pixel(260, top), [255, 0, 0]), `red half: ${pixel(260, top)}`);
  assert.ok(near(pixel(440, top), [0, 0, 255]), `blue half: ${pixel(440, top)}`);
  assert.ok(near(pixel(1000, 1500), [255, 255, 255]), 'paper is white');

  // Every page as a zip at 72 dpi: the rotated page is drawn turned, as pdftoppm draws it.
  const zipped = await server.request('POST', '/v1/pdf/images', { pdf: base64(pdf), dpi: 72 });
  assert.equal(zipped.headers.get('content-type'), 'application/zip');
  const files = unzipSync(new Uint8Array(await zipped.arrayBuffer()));
  const names = Object.keys(files).sort();
  assert.deepEqual(names, ['document-001.png', 'document-002.png', 'document-003.png']);
  const sizes = names.map((name) => decodePng(files[name]!)).map(({ width, height }) => ({ width, height }));
  assert.deepEqual(
    sizes,
    (await pdftoppmSizes(pdf, 72)).map(({ width, height }) => ({ width, height })),
  );
  assert.ok(sizes[1]!.width > sizes[1]!.height, 'page 2 is turned 90°');

  // JPEG and WebP at a width, as a JSON list, pages in the order asked.
  const listed = await server.request('POST', '/v1/pdf/images', { pdf: base64(pdf), pages: '3, 1', format: 'jpeg', quality: 70, width: 300, output: 'json' });
  const list = (await listed.json()) as { pages: { page: number; width: number; height: number; content_type: string; data: string }[] };
  assert.deepEqual(
    list.pages.map((entry) => entry.page),
    [3, 1],
  );
  for (const entry of list.pages) {
    const decoded = decodeJpeg(new Uint8Array(Buffer.from(entry.data, 'base64')));
    assert.deepEqual([decoded.width, decoded.height, entry.content_type], [300, entry.height, 'image/jpeg']);
  }
  const webp = await server.request('POST', '/v1/pdf/images', { pdf: base64(pdf), pages: '2', format: 'webp', dpi: 50, output: 'image' });
  assert.equal(webp.headers.get('content-type'), 'image/webp');
  assert.deepEqual(webpSize(new Uint8Array(await webp.arrayBuffer())), { width: Math.ceil((792 * 50) / 72), height: Math.ceil((612 * 50) / 72) });
  assert.equal(await usageOf(server), before + 4, 'four calls, four documents');
});

test('POST /v1/pdf/images refuses page bombs (413), encrypted input, pages past the end, without charging', async (t) => {
  const server = await startTestServer(t);
  const pdf = await samplePdf();
  const before = await usageOf(server);

  // One 200 x 200 inch page: 30,000 x 30,000 pixels at 150 dpi.
  const huge = await PDFDocument.create();
  huge.addPage([14_400, 14_400]);
  const bomb = await errorOf(await server.request('POST', '/v1/pdf/images', { pdf: base64(await huge.save()) }));
  assert.deepEqual([bomb.status, bomb.code], [413, 'payload_too_large']);
  assert.match(bomb.detail, /30000 x 30000 pixels/);
  // 600 pages: more than one call draws.
  const many = await errorOf(await server.request('POST', '/v1/pdf/images', { pdf: base64(await blankPages(600)), dpi: 10 }));
  assert.deepEqual([many.status, many.code], [413, 'payload_too_large']);
  // 300 A4 pages at 600 dpi: each page fits, together they do not.
  const total = await errorOf(await server.request('POST', '/v1/pdf/images', { pdf: base64(await blankPages(300)), dpi: 300 }));
  assert.deepEqual([total.status, total.code], [413, 'payload_too_large']);
  assert.match(total.detail, /together/);

  const locked = await encryptWithQpdf(pdf, 'secret');
  assert.equal((await errorOf(await server.request('POST', '/v1/pdf/images', { pdf: base64(locked) }))).code, 'password_required');
  const opened = await server.request('POST', '/v1/pdf/images', { pdf: base64(locked), password: 'secret', pages: '1', dpi: 20, output: 'image' });
  assert.equal(opened.status, 200);
  const past = await errorOf(await server.request('POST', '/v1/pdf/images', { pdf: base64(pdf), pages: '2-9' }));
  assert.deepEqual([past.status, past.code], [400, 'invalid_request']);
  const twoAsOne = await errorOf(await server.request('POST', '/v1/pdf/images', { pdf: base64(pdf), output: 'image' }));
  assert.equal(twoAsOne.status, 400);
  const both = await errorOf(await server.request('POST', '/v1/pdf/images', { pdf: base64(pdf), dpi: 72, width: 100 }));
  assert.match(both.detail, /width/);
  assert.equal(await usageOf(server), before + 1, 'only the call that drew was charged');
});

test('GET /v1/documents/{id}/thumbnail draws a stored document’s page; the admin’s too, not charged', async (t) => {
  const server = await startTestServer(t);
  const rendered = await server.render({ html: '<p>One</p><p style="break-before: page">Two</p>', options: { wait_until: 'load' }, store: true });
  const id = rendered.headers.get('x-document-id')!;
  const before = await usageOf(server);
  const thumbnail = await server.request('GET', `/v1/documents/${id}/thumbnail?width=120`);
  assert.equal(thumbnail.status, 200);
  assert.equal(thumbnail.headers.get('content-type'), 'image/png');
  assert.equal(decodePng(new Uint8Array(await thumbnail.arrayBuffer())).width, 120);
  const second = await server.admin('GET', `/admin/v1/documents/${id}/thumbnail?page=2`);
  assert.equal(decodePng(new Uint8Array(await second.arrayBuffer())).width, 240);
  const adminImages = await server.admin('POST', '/admin/v1/pdf/images', { document_id: id, pages: '2', dpi: 30, output: 'image' });
  assert.equal(adminImages.status, 200);
  assert.equal(await usageOf(server), before, 'thumbnails and the admin’s images are free');
  await server.request('DELETE', `/v1/documents/${id}`);
  assert.equal((await errorOf(await server.request('GET', `/v1/documents/${id}/thumbnail?width=120`))).code, 'document_not_found');
});
