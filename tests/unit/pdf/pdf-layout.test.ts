// readLayout (pdf/pdf-layout.ts): page boxes and turns, the title, and the sections a document's
// bookmarks give (explicit destinations and GoTo actions, nested ones in reading order).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { degrees, type PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, type PDFObject, type PDFRef } from 'pdf-lib';
import { readLayout } from '../../../server/src/pdf/pdf-layout.ts';

async function bookmarked(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Handbook');
  const pages = [doc.addPage([600, 800]), doc.addPage([600, 800]), doc.addPage([800, 600])];
  pages[2]!.setRotation(degrees(90));
  pages[1]!.setCropBox(10, 20, 500, 700);
  const { context } = doc;
  const refs: [PDFRef, PDFRef, PDFRef] = [context.nextRef(), context.nextRef(), context.nextRef()];
  const root = context.nextRef();
  const entry = (title: string, extra: Record<string, PDFObject>) => {
    const dict = context.obj(extra) as PDFDict;
    dict.set(PDFName.of('Title'), PDFHexString.fromText(title));
    return dict;
  };
  const page = (index: number): PDFRef => pages[index]!.ref;
  // Chapter one (page 1) with a child Section 1.1 by a GoTo action (page 2); Chapter two (page 3).
  const one = entry('Chapter  one', { Parent: root, Next: refs[2], First: refs[1], Last: refs[1], Count: PDFNumber.of(1) });
  one.set(PDFName.of('Dest'), context.obj([page(0), PDFName.of('Fit')]));
  const child = entry('Section 1.1', { Parent: refs[0] });
  child.set(PDFName.of('A'), context.obj({ S: PDFName.of('GoTo'), D: [page(1), PDFName.of('Fit')] }));
  const two = entry('Chapter two', { Parent: root, Prev: refs[0] });
  two.set(PDFName.of('Dest'), context.obj([page(2), PDFName.of('Fit')]));
  for (const [index, dict] of [one, child, two].entries()) context.assign(refs[index]!, dict);
  context.assign(root, context.obj({ Type: 'Outlines', First: refs[0], Last: refs[2], Count: PDFNumber.of(3) }));
  doc.catalog.set(PDFName.of('Outlines'), root);
  return doc.save();
}

test('readLayout: crop boxes, turns, the title and the bookmarks as sections', async () => {
  const layout = await readLayout(await bookmarked(), 'sources[0]');
  assert.equal(layout.title, 'Handbook');
  assert.deepEqual(layout.pages, [
    { x: 0, y: 0, width: 600, height: 800, rotate: 0 },
    { x: 10, y: 20, width: 500, height: 700, rotate: 0 },
    { x: 0, y: 0, width: 800, height: 600, rotate: 90 },
  ]);
  assert.deepEqual(layout.sections, [
    { text: 'Chapter one', page: 0 },
    { text: 'Section 1.1', page: 1 },
    { text: 'Chapter two', page: 2 },
  ]);
});

test('readLayout: bytes that are no PDF are an error naming the field', async () => {
  await assert.rejects(readLayout(new TextEncoder().encode('%PDF-1.7 nothing else'), 'sources[3]'), (error: Error & { field?: string }) => {
    assert.equal(error.field, 'sources[3]');
    assert.match(error.message, /sources\[3\] is not a readable PDF/);
    return true;
  });
});
