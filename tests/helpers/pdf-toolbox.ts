// Readers for tests/api/pdf-toolbox.test.ts: a render as bytes, a PDF's outline and XMP, small
// PNGs for image watermarks, and qpdf run independently of the library that wrote the PDF.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { type PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TestServer } from './start-app.ts';

export async function renderPdf(server: TestServer, body: Record<string, unknown>): Promise<Uint8Array> {
  const response = await server.render(body);
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, `expected a PDF, got ${response.status}: ${Buffer.from(bytes.subarray(0, 300)).toString()}`);
  return bytes;
}

export const ARTICLE =
  '<title>Quarterly report</title>' +
  '<h1>Overview</h1><p>Intro</p><h2>Revenue</h2><p>Up</p><h2>Costs</h2><p>Down</p>' +
  '<div style="break-before: page"></div><h1>Outlook</h1><h3>Risks</h3><p>Some</p>';

export interface OutlineEntry {
  title: string;
  children: OutlineEntry[];
  page?: number;
}

/** pdf.js's outline entries (their nested items are untyped in pdf.js's declarations). */
export type OutlineItem = Awaited<ReturnType<Awaited<ReturnType<typeof getDocument>['promise']>['getOutline']>>[number];

export async function outlineOf(bytes: Uint8Array): Promise<OutlineEntry[]> {
  const doc = await getDocument({ data: bytes.slice(), isEvalSupported: false, verbosity: 0 }).promise;
  const convert = async (items: OutlineItem[] | null): Promise<OutlineEntry[]> =>
    Promise.all(
      (items ?? []).map(async (item) => {
        const dest = typeof item.dest === 'string' ? await doc.getDestination(item.dest) : item.dest;
        const page = dest ? (await doc.getPageIndex(dest[0])) + 1 : undefined;
        return { title: item.title, page, children: await convert(item.items) };
      }),
    );
  const outline = await convert(await doc.getOutline());
  await doc.destroy();
  return outline;
}

export function xmpOf(pdf: PDFDocument): string {
  const stream = pdf.catalog.lookup(PDFName.of('Metadata'));
  assert.ok(stream instanceof PDFRawStream, 'the catalog has an XMP Metadata stream');
  return Buffer.from(stream.contents).toString('utf8');
}

export function onePixelPng(width: number, height: number, rgb: [number, number, number]): string {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 255]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const png = Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

export function qpdf(args: string[], bytes: Uint8Array): { status: number | null; out: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quire-qpdf-'));
  try {
    const file = path.join(dir, 'in.pdf');
    writeFileSync(file, bytes);
    const result = spawnSync('qpdf', [...args, file], { encoding: 'utf8' });
    return { status: result.status, out: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function decrypt(bytes: Uint8Array, password: string): Uint8Array {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quire-qpdf-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), bytes);
    execFileSync('qpdf', [`--password=${password}`, '--decrypt', path.join(dir, 'in.pdf'), path.join(dir, 'out.pdf')]);
    return new Uint8Array(readFileSync(path.join(dir, 'out.pdf')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const hasQpdf = spawnSync('qpdf', ['--version']).status === 0;
