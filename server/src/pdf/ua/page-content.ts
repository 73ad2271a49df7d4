// A page's content streams, decoded, each with its reference so the fixer can write a changed
// stream back in place. Marked content may not span streams (ISO 32000-1 14.6), so each is read
// on its own.

import { PDFArray, PDFName, PDFRef, PDFStream, type PDFPage } from '@cantoo/pdf-lib';
import { streamBytes } from '../pdf-values.ts';

export interface PageStream {
  ref: PDFRef | undefined;
  bytes: Uint8Array;
}

export function pageStreams(page: PDFPage): PageStream[] {
  const contents = page.node.get(PDFName.of('Contents'));
  const list = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
  const streams: PageStream[] = [];
  for (const item of list) {
    const stream = item instanceof PDFRef ? page.doc.context.lookup(item) : item;
    const bytes = stream instanceof PDFStream ? streamBytes(stream) : undefined;
    if (bytes) streams.push({ ref: item instanceof PDFRef ? item : undefined, bytes });
  }
  return streams;
}
