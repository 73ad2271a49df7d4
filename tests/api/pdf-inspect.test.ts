// POST /v1/pdf/inspect, GET /v1/documents/{id}/inspect and the admin's: what the server reports is
// held against what poppler (pdfinfo, pdffonts, pdfimages) and qpdf --json see in the same file;
// it is not charged; encrypted, foreign and broken inputs are refused with their codes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { bearer, errorOf, startTestServer, usageOf } from '../helpers/start-app.ts';
import { encryptWithQpdf, SAMPLE, samplePdf } from '../helpers/pdf-samples.ts';

const run = promisify(execFile);

interface Inspection {
  version: string;
  page_count: number;
  pages: { number: number; width: number; height: number; rotation: number }[];
  info: Record<string, string>;
  bookmarks: { title: string; page: number | null; children: { title: string; page: number | null }[] }[];
  form_fields: { name: string; type: string; value: unknown; options?: string[] }[];
  attachments: { name: string; size: number; mime: string; relationship: string }[];
  fonts: { name: string; embedded: boolean }[];
  images: { page: number; width: number; height: number; x_dpi: number; y_dpi: number }[];
  encryption: { method: string; key_bits: number; permissions: Record<string, boolean> } | null;
  tagged: boolean;
  pdf_a: string | null;
  signatures: { field: string; sub_filter: string; signer: string }[];
}

/** Runs a poppler or qpdf tool on the bytes (written to a temporary file). */
async function tool(bytes: Uint8Array, command: string, args: string[]): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'quire-inspect-'));
  try {
    const file = path.join(folder, 'in.pdf');
    await writeFile(file, bytes);
    // qpdf exits 3 on warnings, which still answer.
    const result = await run(command, [...args, file], { maxBuffer: 64 * 1024 * 1024 }).catch((error: { code?: number; stdout?: string }) => {
      if (error.code === 3 && error.stdout) return { stdout: error.stdout };
      throw error;
    });
    return result.stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

test('POST /v1/pdf/inspect reports what pdfinfo, pdffonts, pdfimages and qpdf see', async (t) => {
  const server = await startTestServer(t);
  const pdf = await samplePdf();
  const before = await usageOf(server);
  const response = await server.request('POST', '/v1/pdf/inspect', { pdf: Buffer.from(pdf).toString('base64') });
  assert.equal(response.status, 200, await response.clone().text());
  const report = (await response.json()) as Inspection;

  // pdfinfo: pages, sizes, rotation, version, title.
  const info = await tool(pdf, 'pdfinfo', ['-f', '1', '-l', '3']);
  assert.equal(report.page_count, Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]));
  assert.equal(report.version, /^PDF version:\s+(\S+)/m.exec(info)?.[1]);
  for (const page of report.pages) {
    const [, width, height] = new RegExp(`^Page\\s+${page.number} size:\\s+([\\d.]+) x ([\\d.]+)`, 'm').exec(info) ?? [];
    assert.ok(Math.abs(page.width - Number(width)) < 0.01 && Math.abs(page.height - Number(height)) < 0.01, `page ${page.number} size`);
    assert.equal(page.rotation, Number(new RegExp(`^Page\\s+${page.number} rot:\\s+(\\d+)`, 'm').exec(info)?.[1]));
  }
  assert.deepEqual(
    report.pages.map((page) => page.rotation),
    SAMPLE.pages.map((page) => page.rotation),
  );
  assert.equal(report.info.Title, /^Title:\s+(.+)$/m.exec(info)?.[1]);
  assert.equal(report.tagged, /^Tagged:\s+yes/m.test(info));

  // pdffonts: every font name, embedded or not.
  const fonts = (await tool(pdf, 'pdffonts', []))
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((line) => ({ name: line.split(/\s+/)[0]!.replace(/^[A-Z]{6}\+/, ''), embedded: / yes\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/.test(line) }));
  assert.deepEqual(new Set(report.fonts.map((font) => `${font.name}:${font.embedded}`)), new Set(fonts.map((font) => `${font.name}:${font.embedded}`)));

  // pdfimages -list: pixel size and placed resolution of each image.
  const images = (await tool(pdf, 'pdfimages', ['-list']))
    .split('\n')
    .slice(2)
    .filter((line) => / image /.test(line))
    .map((line) => line.trim().split(/\s+/))
    .map((cols) => ({ page: Number(cols[0]), width: Number(cols[3]), height: Number(cols[4]), x: Number(cols[12]), y: Number(cols[13]) }));
  assert.deepEqual(
    report.images.map((image) => ({ page: image.page, width: image.width, height: image.height, x: image.x_dpi, y: image.y_dpi })),
    images,
  );
  assert.equal(report.images[0]?.x_dpi, SAMPLE.image.dpi);

  // qpdf --json: the form fields' names and values, the attachments.
  const qpdf = JSON.parse(await tool(pdf, 'qpdf', ['--json=2', '--json-key=acroform', '--json-key=attachments'])) as {
    acroform: { fields: { fullname: string; value: string | null }[] };
    attachments: Record<string, { filespec: string; streams: Record<string, unknown> }>;
  };
  const qpdfValue = (value: string | null) => (value === null ? null : value.replace(/^u:|^\//, ''));
  for (const field of qpdf.acroform.fields.filter((f) => !f.fullname.startsWith('approval'))) {
    const ours = report.form_fields.find((candidate) => candidate.name === field.fullname);
    assert.ok(ours, `field ${field.fullname} reported`);
    if (ours.type === 'text' || ours.type === 'combobox') assert.equal(ours.value, qpdfValue(field.value));
  }
  assert.deepEqual(
    Object.fromEntries(report.form_fields.filter((field) => field.type !== 'signature').map((field) => [field.name, field.value])),
    SAMPLE.fields,
  );
  assert.deepEqual(
    report.attachments.map((file) => file.name),
    Object.keys(qpdf.attachments),
  );
  assert.deepEqual(report.attachments[0], {
    ...report.attachments[0],
    size: SAMPLE.attachment.bytes.byteLength,
    mime: SAMPLE.attachment.mime,
    relationship: 'Data',
  });

  // What only the XMP and the signature dictionary say.
  assert.equal(report.pdf_a, '2b');
  assert.deepEqual(
    report.signatures.map(({ field, sub_filter, signer }) => ({ field, sub_filter, signer })),
    [{ field: 'approval', sub_filter: 'ETSI.CAdES.detached', signer: SAMPLE.signer }],
  );
  assert.deepEqual(report.bookmarks, [{ title: 'Start', page: 1, children: [{ title: 'Third', page: 3, children: [] }] }]);
  assert.equal(report.encryption, null);
  assert.equal(await usageOf(server), before, 'inspect is not charged');
});

test('POST /v1/pdf/inspect: multipart upload, encryption and permissions, refusals', async (t) => {
  const server = await startTestServer(t);
  const pdf = await samplePdf();
  const locked = await encryptWithQpdf(pdf, 'open-sesame', ['--print=none', '--modify=none']);

  const form = new FormData();
  form.set('file', new Blob([Buffer.from(locked)], { type: 'application/pdf' }), 'locked.pdf');
  form.set('password', 'open-sesame');
  const response = await fetch(`${server.url}/v1/pdf/inspect`, { method: 'POST', headers: bearer(server.key), body: form });
  assert.equal(response.status, 200, await response.clone().text());
  const report = (await response.json()) as Inspection;
  const qpdf = JSON.parse(await tool(locked, 'qpdf', ['--password=open-sesame', '--json=2', '--json-key=encrypt'])) as {
    encrypt: { capabilities: { printhigh: boolean; printlow: boolean; modify: boolean; extract: boolean }; parameters: { bits: number; method: string } };
  };
  assert.equal(report.encryption?.key_bits, qpdf.encrypt.parameters.bits);
  assert.equal(report.encryption?.method, 'AES-256');
  assert.equal(report.encryption?.permissions.print, qpdf.encrypt.capabilities.printlow);
  assert.equal(report.encryption?.permissions.print_high_quality, qpdf.encrypt.capabilities.printhigh);
  assert.equal(report.encryption?.permissions.copy, qpdf.encrypt.capabilities.extract);
  assert.equal(report.page_count, 3, 'the decrypted document is read');
  assert.equal(report.form_fields.find((field) => field.name === 'name')?.value, SAMPLE.fields.name);

  const noPassword = await server.request('POST', '/v1/pdf/inspect', { pdf: Buffer.from(locked).toString('base64') });
  assert.equal((await errorOf(noPassword)).code, 'password_required');
  const wrong = await server.request('POST', '/v1/pdf/inspect', { pdf: Buffer.from(locked).toString('base64'), password: 'nope' });
  assert.equal((await errorOf(wrong)).code, 'password_incorrect');
  const notPdf = await errorOf(await server.request('POST', '/v1/pdf/inspect', { pdf: Buffer.from('hello, not a pdf').toString('base64') }));
  assert.deepEqual([notPdf.status, notPdf.code], [422, 'pdf_unreadable']);
  const both = await errorOf(await server.request('POST', '/v1/pdf/inspect', { pdf: Buffer.from(pdf).toString('base64'), document_id: 'doc_abc' }));
  assert.equal(both.status, 400);
  const missing = await errorOf(await server.request('GET', '/v1/documents/doc_unknown1234/inspect'));
  assert.equal(missing.code, 'document_not_found');
});

test('GET /v1/documents/{id}/inspect reads a stored render; the admin reads any key’s', async (t) => {
  const server = await startTestServer(t);
  const rendered = await server.render({
    html: '<title>Stored</title><h1>One</h1><h2 style="break-before: page">Two</h2>',
    options: { wait_until: 'load', outline: true },
    store: true,
  });
  assert.equal(rendered.status, 200);
  const id = rendered.headers.get('x-document-id')!;
  const stored = new Uint8Array(await rendered.arrayBuffer());
  const report = (await (await server.request('GET', `/v1/documents/${id}/inspect`)).json()) as Inspection;
  const info = await tool(stored, 'pdfinfo', []);
  assert.equal(report.page_count, Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]));
  assert.equal(report.tagged, /^Tagged:\s+yes/m.test(info));
  assert.equal(report.info.Title, 'Stored');
  assert.deepEqual(
    report.bookmarks.flatMap((mark) => [mark.page, ...mark.children.map((child) => child.page)]).filter((page) => page !== null),
    [1, 2],
  );
  const embedded = (await tool(stored, 'pdffonts', [])).split('\n').slice(2).filter(Boolean).length;
  assert.ok(report.fonts.length > 0 && report.fonts.length <= embedded && report.fonts.every((font) => font.embedded));

  const asAdmin = await server.admin('GET', `/admin/v1/documents/${id}/inspect`);
  assert.equal(asAdmin.status, 200);
  assert.equal(((await asAdmin.json()) as Inspection).page_count, report.page_count);
  const other = await server.createKey('starter');
  const foreign = await server.request('GET', `/v1/documents/${id}/inspect`, undefined, { authorization: `Bearer ${other.key}` });
  assert.equal((await errorOf(foreign)).code, 'document_not_found');
});
