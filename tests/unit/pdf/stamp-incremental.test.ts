// The incremental stamp: appended to a file laid out as Chromium writes it (read back by pdf-lib
// with the instance drawn), and left to the pdf-lib way for any other layout.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { stampIncrementally } from '../../../server/src/pdf/stamp-incremental.ts';
import { parseValue, serialize } from '../../../server/src/pdf/pdf-syntax.ts';

/** A one-page PDF in Skia's layout: plain dictionaries, one content stream, a classic xref table. */
function skiaLike(content: string, mediaBox = '0 0 200 100'): Uint8Array {
  const objects = [
    '<</Type /Catalog /Pages 2 0 R>>',
    '<</Type /Pages /Count 1 /Kids [3 0 R]>>',
    `<</Type /Page /Resources <</ProcSet [/PDF]>> /MediaBox [${mediaBox}] /Contents 4 0 R /Parent 2 0 R>>`,
    `<</Length ${content.length}>>\nstream\n${content}\nendstream`,
  ];
  let text = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(text.length);
    text += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  text += `trailer\n<</Size ${objects.length + 1} /Root 1 0 R>>\nstartxref\n${xref}\n%%EOF`;
  return new Uint8Array(Buffer.from(text, 'latin1'));
}

const PLAN = { pages: [{ header: 0 }], header: { x: 10, edge: 5, width: 180, height: 20 }, overlayHeight: 30 };

test('an instance is appended as a form the page draws, the original bytes kept in front', async () => {
  const body = skiaLike('0 0 m 10 10 l S');
  const stamped = stampIncrementally(body, skiaLike('1 0 0 rg 0 0 50 30 re f', '0 0 180 30'), PLAN)!;
  assert.ok(stamped);
  assert.equal(Buffer.compare(Buffer.from(stamped.subarray(0, body.byteLength)), Buffer.from(body)), 0);
  const doc = await PDFDocument.load(stamped);
  const page = doc.getPage(0);
  assert.ok(page.node.Resources()!.lookup(PDFName.of('XObject'))!.toString().includes('/QuireHeader'));
  assert.equal(page.node.Contents()!.toString().split('R').length - 1, 3, 'q, the page, then the drawing');
});

test('a file in another layout is left to pdf-lib', async () => {
  const doc = await PDFDocument.create();
  doc.addPage([200, 100]);
  const other = await doc.save({ useObjectStreams: true });
  assert.equal(stampIncrementally(other, skiaLike('', '0 0 180 30'), PLAN), undefined);
});

test('dictionaries read and write back as PDF syntax', () => {
  const text = '<</Type /Page /A [1 0 R (a\\)b) <0aff> true -1.5] /B <</C /D#20E>>>>';
  assert.equal(serialize(parseValue(text, 0).value), '<</Type /Page /A [1 0 R (a\\)b) <0aff> true -1.5] /B <</C /D#20E>>>>');
});
