// pdf/pdf-open.ts: an input PDF is decrypted with its password, repaired where qpdf can, and
// refused (with the input named) when encrypted without a password, damaged, or past a limit.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument } from '@cantoo/pdf-lib';
import { openPdf } from '../../../server/src/pdf/pdf-open.ts';
import { PdfInputError } from '../../../server/src/pdf/pdf-errors.ts';

async function pages(count: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < count; i++) doc.addPage([200, 200]).drawText(`Page ${i + 1}`, { x: 20, y: 100 });
  return doc.save();
}

function encrypt(pdf: Uint8Array, user: string): Uint8Array {
  const dir = mkdtempSync(path.join(tmpdir(), 'open-test-'));
  writeFileSync(path.join(dir, 'in.pdf'), pdf);
  execFileSync('qpdf', ['--encrypt', user, 'owner-secret', '256', '--', path.join(dir, 'in.pdf'), path.join(dir, 'out.pdf')]);
  return new Uint8Array(readFileSync(path.join(dir, 'out.pdf')));
}

async function refusal(promise: Promise<unknown>): Promise<PdfInputError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof PdfInputError, `expected a PdfInputError, got ${String(error)}`);
  return error;
}

test('a plain PDF opens with its page count', async () => {
  const opened = await openPdf(await pages(3), { field: 'pdf' });
  assert.equal(opened.pageCount, 3);
  assert.equal(opened.encrypted, false);
});

test('an encrypted PDF needs its password: required, incorrect, then opened and decrypted', async () => {
  const locked = encrypt(await pages(2), 'let-me-in');
  assert.equal((await refusal(openPdf(locked, { field: 'pdf' }))).problem, 'password_required');
  assert.equal((await refusal(openPdf(locked, { field: 'pdf', password: 'wrong' }))).problem, 'password_incorrect');
  const opened = await openPdf(locked, { field: 'pdf', password: 'let-me-in' });
  assert.equal(opened.pageCount, 2);
  assert.equal(opened.encrypted, true);
  // The result opens without any password.
  assert.doesNotThrow(() => PDFDocument.load(opened.pdf));
  assert.equal((await PDFDocument.load(opened.pdf)).isEncrypted, false);
});

test('an owner-password-only PDF opens without a password, as in any viewer', async () => {
  const opened = await openPdf(encrypt(await pages(1), ''), { field: 'pdf' });
  assert.equal(opened.encrypted, true);
  assert.equal(opened.pageCount, 1);
});

test('past the page limit is too large; not a PDF and garbage are refused by name', async () => {
  const error = await refusal(openPdf(await pages(5), { field: 'source.pdf', limits: { pages: 4 } }));
  assert.equal(error.problem, 'too_large');
  assert.match(error.message, /source\.pdf has 5 pages/);
  const notPdf = await refusal(openPdf(new TextEncoder().encode('hello'), { field: 'pdf' }));
  assert.equal(notPdf.problem, 'not_pdf');
  assert.equal(notPdf.message, 'The file given as pdf is not a PDF: its first kilobyte has no %PDF- header');
  const garbage = new TextEncoder().encode(`%PDF-1.7\n${'x'.repeat(2000)}\n%%EOF\n`);
  const damaged = await refusal(openPdf(garbage, { field: 'pdf' }));
  assert.equal(damaged.problem, 'unreadable');
  assert.match(damaged.message, /^pdf /);
});
