// creatorAsQuire (issue 39 item 3): Chromium's Creator becomes "Quire" in place, the file's length
// and every other byte kept; anything not laid out as Skia writes it is left alone. The PDFs the
// engines really print are checked with pdfinfo in tests/api/page-clock.test.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { creatorAsQuire } from '../../../server/src/pdf/creator.ts';

const skia = (info: string) => Buffer.from(`%PDF-1.4\n%\xd3\xeb\xe9\xe1\n1 0 obj\n<<${info}>>\nendobj\n2 0 obj\n<</Creator (Kept)>>\nendobj\n`, 'latin1');

function patched(pdf: Buffer): string {
  const before = pdf.length;
  const out = creatorAsQuire(new Uint8Array(pdf));
  assert.equal(out.byteLength, before, 'no byte offset moves');
  return Buffer.from(out).toString('latin1');
}

test("the headless shell's Creator and full Chromium's user agent become Quire; the rest stays", () => {
  const shell = patched(skia("/Creator (Chromium)\n/Producer (Skia/PDF m147)\n/CreationDate (D:20261127215544+00'00')"));
  assert.match(shell, /1 0 obj\n<<\/Creator \(Quire\) {3}\n\/Producer \(Skia\/PDF m147\)/);
  assert.match(shell, /2 0 obj\n<<\/Creator \(Kept\)>>/, 'only the information dictionary');
  const full = patched(
    skia('/Title (A \\(/Creator \\(x\\)\\) title)\n/Creator (Mozilla/5.0 \\(X11; Linux x86_64\\) HeadlessChrome/156.0.0.0)\n/Producer (Skia/PDF m156)'),
  );
  assert.match(full, /\/Title \(A \\\(\/Creator \\\(x\\\)\\\) title\)\n\/Creator \(Quire\) +\n\/Producer/);
});

test('a file not laid out as Skia writes it, or without a Creator in object 1, is left as it is', () => {
  for (const pdf of [
    Buffer.from('%PDF-1.7\n1 0 obj\n<</Type /Catalog>>\nendobj\n2 0 obj\n<</Creator (Chromium)>>\nendobj\n', 'latin1'),
    skia('/Producer (Skia/PDF m147)'),
    skia('/Creator (Q)'),
  ]) {
    const copy = Buffer.from(pdf);
    assert.equal(patched(pdf), copy.toString('latin1'));
  }
});
