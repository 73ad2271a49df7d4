import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { parsePdfFacts, readPdfFacts, scanPdfFacts } from '../../../server/src/pdf/pdf-facts.ts';

async function twoPages(useObjectStreams: boolean): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const size of [
    [595.92, 841.92],
    [300, 400],
  ] as [number, number][]) {
    const page = document.addPage(size);
    page.drawText('Receipt', { font, x: 20, y: 20 });
  }
  return document.save({ useObjectStreams });
}

test('the byte scan finds what the parse finds in a PDF of plain objects: pages, first page size, fonts', async () => {
  const pdf = await twoPages(false);
  const scanned = scanPdfFacts(pdf);
  assert.deepEqual(scanned, await parsePdfFacts(pdf));
  assert.deepEqual(scanned, { pages: 2, width: 595.92, height: 841.92, fonts: [{ name: 'Helvetica', subset: false, type: 'Type 1', embedded: false }] });
});

test('a PDF written with object streams is not scanned but parsed, to the same facts', async () => {
  const pdf = await twoPages(true);
  assert.equal(scanPdfFacts(pdf), undefined);
  assert.deepEqual(await readPdfFacts(pdf), await parsePdfFacts(await twoPages(false)));
});

test('bytes that are no PDF have no facts', async () => {
  assert.equal(await readPdfFacts(new TextEncoder().encode('not a pdf at all')), undefined);
});
