// What drawing a header and footer on a PDF we did not lay out (an office conversion, an uploaded
// or stored PDF in a merge) needs to know of it: each page's visible box and turn, the title, and
// where its sections begin (its bookmarks: LibreOffice writes one per heading). Runs in the PDF
// worker thread.

import { PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import { FinishInputError } from './pdf-errors.ts';
import { readOutlineTree, type OutlineEntry } from './outline.ts';

/** A page's visible area (its crop box) in its own user space, in points, and its /Rotate. */
export interface PageFrame {
  x: number;
  y: number;
  width: number;
  height: number;
  /** 0, 90, 180 or 270: how far the page is turned clockwise when shown. */
  rotate: number;
}

export interface PdfLayout {
  pages: PageFrame[];
  /** The document's title (Info /Title), '' when it has none. */
  title: string;
  /** Bookmarks in reading order and the 0-based page each opens: the sections of the document. */
  sections: { text: string; page: number }[];
}

/** Reads the layout; a file pdf-lib cannot read, or an encrypted one, is a FinishInputError naming `field`. */
export async function readLayout(bytes: Uint8Array, field: string): Promise<PdfLayout> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true, parseSpeed: Number.POSITIVE_INFINITY });
  } catch {
    throw new FinishInputError(field, `${field} is not a readable PDF`);
  }
  if (doc.isEncrypted) throw new FinishInputError(field, `${field} is encrypted: a header or footer cannot be drawn on it`);
  try {
    return layoutOf(doc);
  } catch {
    // pdf-lib reads leniently: a file without a page tree is found only now.
    throw new FinishInputError(field, `${field} is not a readable PDF`);
  }
}

function layoutOf(doc: PDFDocument): PdfLayout {
  const pages = doc.getPages();
  const pageIndex = new Map<PDFRef, number>(pages.map((page, index) => [page.ref, index]));
  const sections: PdfLayout['sections'] = [];
  const visit = (entries: OutlineEntry[]) => {
    for (const entry of entries) {
      const page = entry.page && pageIndex.get(entry.page);
      if (page !== undefined && entry.title !== undefined) sections.push({ text: entry.title.replace(/\s+/g, ' ').trim(), page });
      visit(entry.children);
    }
  };
  visit(readOutlineTree(doc));
  return {
    pages: pages.map((page) => {
      const { x, y, width, height } = page.getCropBox();
      const rotate = (((Math.round(page.getRotation().angle / 90) * 90) % 360) + 360) % 360;
      return { x, y, width, height, rotate };
    }),
    title: doc.getTitle() ?? '',
    sections,
  };
}
