// Draws printed header and footer instances (one small page each, header-overlay.ts) onto the
// body's pages as embedded pages (Form XObjects): their text stays text and their images stay
// images. Also finds on which page each section marker of the body landed (header-plan.ts: an
// invisible link per heading) and removes those links. Runs in the PDF worker thread.

import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFString, type PDFEmbeddedPage } from '@cantoo/pdf-lib';
import type { FinishOptions } from './finish-options.ts';
import { applyFinish } from './finish.ts';

/** Where a header or footer box sits on a body page, in points. */
export interface StampBox {
  /** From the page's left edge. */
  x: number;
  /** From the page's top edge to the box (header), or from the bottom edge to the box (footer). */
  edge: number;
  width: number;
  height: number;
}

export interface StampPlan {
  /** Per body page, the overlay page drawn as its header and as its footer (none when left out). */
  pages: { header?: number; footer?: number }[];
  header?: StampBox;
  footer?: StampBox;
  /** Height of the overlay's pages in points: each instance sits at the top-left of its page. */
  overlayHeight: number;
  /** Links whose URI starts with this are section markers, removed from the result. */
  markerPrefix?: string;
}

/** Page count and, per section marker number, the 0-based page it landed on (-1: not printed). */
export interface MarkerPages {
  pageCount: number;
  markers: number[];
}

const PARSE = { updateMetadata: false, parseSpeed: Number.POSITIVE_INFINITY } as const;

/** Finds the section markers of a printed body (links under `prefix`, numbered). */
export async function findMarkers(bytes: Uint8Array, prefix: string): Promise<MarkerPages> {
  const doc = await PDFDocument.load(bytes, PARSE);
  const markers: number[] = [];
  doc.getPages().forEach((page, index) => {
    for (const { uri } of markerLinks(page.node.lookupMaybe(PDFName.of('Annots'), PDFArray), prefix)) {
      const number = Number(uri.slice(prefix.length));
      if (Number.isInteger(number) && number >= 0 && number < 100_000 && markers[number] === undefined) markers[number] = index;
    }
  });
  for (let i = 0; i < markers.length; i++) markers[i] ??= -1;
  return { pageCount: doc.getPageCount(), markers };
}

/** The body with its headers and footers drawn, markers removed and the finish options applied. */
export async function stampPdf(bytes: Uint8Array, overlayBytes: Uint8Array, plan: StampPlan, options: FinishOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, PARSE);
  const overlay = await PDFDocument.load(overlayBytes, PARSE);
  const embedded = new Map<string, PDFEmbeddedPage>();
  const instance = async (index: number, box: StampBox): Promise<PDFEmbeddedPage> => {
    const key = `${index}:${box.height}`;
    let page = embedded.get(key);
    if (!page) {
      const source = overlay.getPage(index);
      // The instance is at the top-left of its page: cut the box out of it (the page as printed,
      // which Chromium snaps to whole pixels).
      const top = source.getHeight();
      page = await doc.embedPage(source, { left: 0, right: box.width, top, bottom: top - box.height });
      embedded.set(key, page);
    }
    return page;
  };
  const pages = doc.getPages();
  for (const [index, page] of pages.entries()) {
    const wanted = plan.pages[index];
    if (!wanted) continue;
    const { height } = page.getSize();
    if (wanted.header !== undefined && plan.header) {
      const box = plan.header;
      page.drawPage(await instance(wanted.header, box), { x: box.x, y: height - box.edge - box.height });
    }
    if (wanted.footer !== undefined && plan.footer) {
      const box = plan.footer;
      page.drawPage(await instance(wanted.footer, box), { x: box.x, y: box.edge });
    }
  }
  // After drawing: pdf-lib puts an empty /Annots back on a page it draws on.
  if (plan.markerPrefix) for (const page of pages) removeMarkers(doc, page.node, plan.markerPrefix);
  await applyFinish(doc, options);
  return doc.save({ objectsPerTick: Number.POSITIVE_INFINITY });
}

/** Takes the marker links out of the page and out of the file: nothing of them is left to find. */
function removeMarkers(doc: PDFDocument, node: PDFDict, prefix: string): void {
  const annots = node.lookupMaybe(PDFName.of('Annots'), PDFArray);
  if (!annots) return;
  const drop = markerLinks(annots, prefix);
  for (const link of drop.reverse()) {
    annots.remove(link.index);
    if (link.ref) doc.context.delete(link.ref);
  }
  if (annots.size() === 0) node.delete(PDFName.of('Annots'));
}

function markerLinks(annots: PDFArray | undefined, prefix: string): { index: number; uri: string; ref?: PDFRef }[] {
  const found: { index: number; uri: string; ref?: PDFRef }[] = [];
  if (!annots) return found;
  for (let index = 0; index < annots.size(); index++) {
    const annot = annots.lookupMaybe(index, PDFDict);
    const uri = annot?.lookupMaybe(PDFName.of('A'), PDFDict)?.lookupMaybe(PDFName.of('URI'), PDFString)?.decodeText();
    const ref = annots.get(index);
    if (uri?.startsWith(prefix)) found.push({ index, uri, ref: ref instanceof PDFRef ? ref : undefined });
  }
  return found;
}
