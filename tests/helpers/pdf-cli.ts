// Reads PDFs with tools independent of the code under test (poppler's pdfinfo, pdftotext and
// pdfimages; qpdf's JSON), and makes the PDFs the transform tests feed in (pdf-lib).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { constants as zlibConstants, deflateRawSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFString } from '@cantoo/pdf-lib';

function withFile<T>(pdf: Uint8Array, read: (file: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdf-cli-'));
  try {
    const file = path.join(dir, 'f.pdf');
    writeFileSync(file, pdf);
    return read(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const run = (tool: string, args: string[]) => execFileSync(tool, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/** The text of each page, trimmed (pdftotext, one call per page). */
export function pageTexts(pdf: Uint8Array): string[] {
  return withFile(pdf, (file) => {
    const count = Number(/Pages:\s+(\d+)/.exec(run('pdfinfo', [file]))![1]);
    return Array.from({ length: count }, (_, i) => run('pdftotext', ['-f', String(i + 1), '-l', String(i + 1), '-layout', file, '-']).trim());
  });
}

/** Each page's rotation in degrees (pdfinfo). */
export function pageRotations(pdf: Uint8Array): number[] {
  return withFile(pdf, (file) => [...run('pdfinfo', ['-f', '1', '-l', '100000', file]).matchAll(/Page\s+\d+ rot:\s+(\d+)/g)].map((m) => Number(m[1])));
}

/** pdfinfo's fields (Title, Pages, Encrypted...); `args` such as -isodates go before the file. */
export function pdfInfo(pdf: Uint8Array, args: string[] = []): Record<string, string> {
  return withFile(pdf, (file) =>
    Object.fromEntries([...run('pdfinfo', [...args, file]).matchAll(/^([^:\n]+):\s*(.*)$/gm)].map((m) => [m[1]!.trim(), m[2]!.trim()])),
  );
}

/** The images pdfimages lists: width, height and encoding of each. */
export function imagesOf(pdf: Uint8Array): { width: number; height: number; enc: string }[] {
  return withFile(pdf, (file) =>
    run('pdfimages', ['-list', file])
      .split('\n')
      .slice(2)
      .filter((line) => line.trim())
      .map((line) => {
        const cols = line.trim().split(/\s+/);
        return { width: Number(cols[3]), height: Number(cols[4]), enc: cols[8]! };
      }),
  );
}

/** qpdf's JSON of the form fields: full name -> value as qpdf reads it. */
export function formValues(pdf: Uint8Array): Record<string, unknown> {
  return withFile(pdf, (file) => {
    const json = JSON.parse(run('qpdf', ['--json=2', '--json-key=acroform', file])) as { acroform: { fields: { fullname: string; value: unknown }[] } };
    // qpdf's JSON v2 marks text strings "u:" (UTF-8) and binary ones "b:".
    const plain = (value: unknown) => (typeof value === 'string' ? value.replace(/^[ub]:/, '') : value);
    return Object.fromEntries(json.acroform.fields.map((field) => [field.fullname.replace(/^[ub]:/, ''), plain(field.value)]));
  });
}

/** The whole file as qpdf writes it uncompressed (QDF), to look for objects by text. */
export function qdfText(pdf: Uint8Array): string {
  return withFile(pdf, (file) => run('qpdf', ['--qdf', '--object-streams=disable', file, '-']));
}

/** A PDF of pages with the given texts (300 × 300 pt). */
export async function textPdf(texts: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const text of texts) doc.addPage([300, 300]).drawText(text, { x: 20, y: 150, size: 20 });
  return doc.save();
}

/** A one-page AcroForm with a text field, a check box, a radio group and a drop-down, and an open action running JavaScript. */
export async function formPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([400, 400]);
  page.drawText('Application form', { x: 20, y: 360, size: 14 });
  const form = doc.getForm();
  form.createTextField('applicant.name').addToPage(page, { x: 20, y: 300, width: 250, height: 30 });
  form.createCheckBox('agree').addToPage(page, { x: 20, y: 250, width: 20, height: 20 });
  const size = form.createRadioGroup('size');
  size.addOptionToPage('S', page, { x: 20, y: 200, width: 20, height: 20 });
  size.addOptionToPage('L', page, { x: 60, y: 200, width: 20, height: 20 });
  const color = form.createDropdown('color');
  color.addOptions(['red', 'blue']);
  color.addToPage(page, { x: 20, y: 150, width: 120, height: 24 });
  doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert("quire-test-script")') }));
  return doc.save();
}

/** The pdf encrypted by qpdf (AES-256) with a user password. */
export function encryptedPdf(pdf: Uint8Array, userPassword: string): Uint8Array {
  return withFile(pdf, (file) => {
    const out = `${file}.enc.pdf`;
    execFileSync('qpdf', ['--encrypt', userPassword, 'owner-pass', '256', '--', file, out]);
    return new Uint8Array(readFileSync(out));
  });
}

/** A PDF written by hand from object bodies (object 1 is the catalog), with a correct cross-reference table. */
export function rawPdf(objects: string[]): Uint8Array {
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

/** rawPdf's layout for objects 1-3 (`head`, written in order) and a binary stream as object 4. */
export function rawPdfWithStream(head: string, dict: string, data: Buffer): Uint8Array {
  const header = '%PDF-1.7\n';
  const offsets = [...`${header}${head}`.matchAll(/\d+ 0 obj\n/g)].map((match) => match.index);
  const before = Buffer.from(`${header}${head}4 0 obj\n${dict}\nstream\n`, 'latin1');
  offsets.push(Buffer.byteLength(`${header}${head}`, 'latin1'));
  const xref = before.byteLength + data.byteLength + '\nendstream\nendobj\n'.length;
  const tail =
    `\nendstream\nendobj\nxref\n0 5\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}` +
    `trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.concat([before, data, Buffer.from(tail, 'latin1')]));
}

const CATALOG = '<< /Type /Catalog /Pages 2 0 R >>';
const page = (extra = '') => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] ${extra}>>`;

/** Hostile inputs: each must be refused (or, for deep nesting, defused) before anything is charged. */
export const HOSTILE_PDFS = {
  /** A page tree of `count` pages. */
  pages: (count: number) =>
    rawPdf([
      CATALOG,
      `<< /Type /Pages /Kids [${Array.from({ length: count }, (_, i) => `${i + 3} 0 R`).join(' ')}] /Count ${count} >>`,
      ...Array.from({ length: count }, () => page()),
    ]),
  /** One page showing a 20000 × 20000 RGB image (1.2 GB decoded) whose data is empty. */
  imageBomb: () =>
    rawPdf([
      CATALOG,
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      page('/Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R '),
      '<< /Type /XObject /Subtype /Image /Width 20000 /Height 20000 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length 0 >>\nstream\n\nendstream',
      '<< /Length 30 >>\nstream\nq 200 0 0 200 0 0 cm /Im1 Do Q\nendstream',
    ]),
  /** A page tree whose root lists itself among its kids. */
  cyclicPages: () => rawPdf([CATALOG, '<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>', page()]),
  /** An array nested 100000 deep hung on the catalog. */
  deepNesting: () =>
    rawPdf([
      '<< /Type /Catalog /Pages 2 0 R /Deep 4 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      page(),
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    ]),
  /**
   * One page whose content stream is a FlateDecode stream of zeros unpacking to `megabytes` (1 GB by
   * default) from about a thousandth of that: one flushed deflate block of 1 MB of zeros repeated
   * (each is whole on its own), so the test never holds the unpacked bytes.
   */
  decompressionBomb: (megabytes = 1024) => {
    const block = deflateRawSync(Buffer.alloc(1024 * 1024), { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH });
    // zlib header, the blocks, an empty final block; the checksum is left out (a reader stops at the limit long before).
    const data = Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: megabytes }, () => block), Buffer.from([0x03, 0x00])]);
    const head = [CATALOG, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', page('/Contents 4 0 R ')]
      .map((body, i) => `${i + 1} 0 obj\n${body}\nendobj\n`)
      .join('');
    return rawPdfWithStream(head, `<< /Length ${data.byteLength} /Filter /FlateDecode >>`, data);
  },
  /** A header and then nothing a PDF reader can use. */
  garbage: () => new Uint8Array(Buffer.from(`%PDF-1.7\n${'garbage '.repeat(300)}\n%%EOF\n`, 'latin1')),
};
