// The insert_blank step: blank pages after a given page, the size of the page before them (or of
// the first page) unless a size is given. Runs on the PDF worker thread (pdf-lib).

import { PDFDocument } from '@cantoo/pdf-lib';
import { PdfStepError } from '../pdf-errors.ts';

export interface BlankPages {
  after: number;
  count: number;
  size?: [number, number];
}

/** The document with `count` blank pages after page `after` (0: before the first). */
export async function insertBlankPages(pdf: Uint8Array, blank: BlankPages, field: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const count = doc.getPageCount();
  if (blank.after > count)
    throw new PdfStepError(`${field}.after`, `${field}.after is page ${blank.after}, but the document has ${count} page${count === 1 ? '' : 's'} at that step`);
  const model = doc.getPage(Math.max(0, blank.after - 1));
  const { width, height } = model.getSize();
  // A turned neighbour is shown turned: the blank page takes the size it is seen at.
  const turned = model.getRotation().angle % 180 !== 0;
  const size: [number, number] = blank.size ?? (turned ? [height, width] : [width, height]);
  for (let i = 0; i < blank.count; i++) doc.insertPage(blank.after + i, size);
  return doc.save();
}
