// Reads PDFs with tools independent of the code under test (poppler's pdfinfo, pdftotext and
// pdfimages; qpdf's JSON), and makes the PDFs the transform tests feed in (pdf-lib).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

/** pdfinfo's fields (Title, Pages, Encrypted...). */
export function pdfInfo(pdf: Uint8Array): Record<string, string> {
  return withFile(pdf, (file) => Object.fromEntries([...run('pdfinfo', [file]).matchAll(/^([^:\n]+):\s*(.*)$/gm)].map((m) => [m[1]!.trim(), m[2]!.trim()])));
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
