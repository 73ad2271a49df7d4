// Draws printed header and footer instances (one small page each, header-overlay.ts) onto the
// body's pages as embedded pages (Form XObjects): their text stays text and their images stay
// images. Also finds on which page each section marker of the body landed (header-plan.ts: an
// invisible link per heading) and removes those links. Runs in the PDF worker thread.

import {
  concatTransformationMatrix,
  decodePDFRawStream,
  drawObject,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFObjectCopier,
  PDFRawStream,
  PDFRef,
  PDFString,
  popGraphicsState,
  pushGraphicsState,
  type PDFPage,
} from '@cantoo/pdf-lib';
import { needsFinishing, type FinishOptions } from './finish-options.ts';
import { stampIncrementally } from './stamp-incremental.ts';
import { applyFinish } from './finish.ts';
import type { Matrix, MarkerPages, Placement, StampBox, StampPlan } from './stamp-plan.ts';

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
  // Nothing to remove and nothing to rewrite: append the instances to the body as it is.
  if (!plan.markerPrefix && !plan.placements && !needsFinishing(options)) {
    const appended = stampIncrementally(bytes, overlayBytes, plan);
    if (appended) return appended;
  }
  const doc = await PDFDocument.load(bytes, PARSE);
  const overlay = await PDFDocument.load(overlayBytes, PARSE);
  const pages = doc.getPages();
  // One copier for every instance: the fonts and images they share are copied once.
  const copier = PDFObjectCopier.for(overlay.context, doc.context);
  const forms = new Map<string, PDFRef>();
  const formFor = (side: 'header' | 'footer', index: number): PDFRef => {
    const key = `${side}:${index}`;
    let ref = forms.get(key);
    if (!ref) {
      ref = embedInstance(doc, copier, overlay.getPage(index), plan.sizes?.[index] ?? plan[side]!);
      forms.set(key, ref);
    }
    return ref;
  };
  for (const [index, page] of pages.entries()) {
    const wants = plan.pages[index];
    if (!wants) continue;
    const placement = plan.placements?.[index];
    if (placement) {
      placeOnForeignPage(doc, page, placement, (side) => (wants[side] === undefined ? undefined : formFor(side, wants[side]!)));
      continue;
    }
    const { height } = page.getSize();
    for (const side of ['header', 'footer'] as const) {
      const box = plan[side];
      if (wants[side] === undefined || !box) continue;
      const name = page.node.newXObject('QuireBox', formFor(side, wants[side]!));
      const y = side === 'header' ? height - box.edge - box.height : box.edge;
      page.pushOperators(pushGraphicsState(), concatTransformationMatrix(1, 0, 0, 1, box.x, y), drawObject(name), popGraphicsState());
    }
  }
  // After drawing: pdf-lib puts an empty /Annots back on a page it draws on.
  if (plan.markerPrefix) for (const page of pages) removeMarkers(doc, page.node, plan.markerPrefix);
  await applyFinish(doc, options);
  return doc.save({ objectsPerTick: Number.POSITIVE_INFINITY, useObjectStreams: false });
}

/**
 * Draws on a page we did not lay out: its own content (and its annotations' places) moved by the
 * placement's content matrix first, inside q ... Q so nothing it leaves set reaches the boxes,
 * then each box drawn with its matrix.
 */
function placeOnForeignPage(doc: PDFDocument, page: PDFPage, placement: Placement, formFor: (side: 'header' | 'footer') => PDFRef | undefined): void {
  page.node.normalize();
  const start = doc.context.register(
    doc.context.contentStream(placement.content ? [pushGraphicsState(), concatTransformationMatrix(...placement.content)] : [pushGraphicsState()]),
  );
  const end = doc.context.register(doc.context.contentStream([popGraphicsState()]));
  page.node.wrapContentStreams(start, end);
  if (placement.content) moveAnnotations(page, placement.content);
  for (const side of ['header', 'footer'] as const) {
    const matrix = placement[side];
    const form = matrix && formFor(side);
    if (!matrix || !form) continue;
    const name = page.node.newXObject('QuireBox', form);
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...matrix), drawObject(name), popGraphicsState());
  }
}

/** Moves each annotation's rectangle (and a link's quad points) by the matrix, so links still sit on what they cover. */
function moveAnnotations(page: PDFPage, [a, b, c, d, e, f]: Matrix): void {
  const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
  if (!annots) return;
  const point = (x: number, y: number) => [a * x + c * y + e, b * x + d * y + f] as const;
  const numbers = (array: PDFArray) => array.asArray().map((item) => (item instanceof PDFNumber ? item.asNumber() : Number.NaN));
  for (let index = 0; index < annots.size(); index++) {
    const annot = annots.lookupMaybe(index, PDFDict);
    const rect = annot?.lookupMaybe(PDFName.of('Rect'), PDFArray);
    if (!annot || !rect || rect.size() !== 4) continue;
    const [x1, y1, x2, y2] = numbers(rect) as [number, number, number, number];
    if ([x1, y1, x2, y2].some(Number.isNaN)) continue;
    const [p, q] = [point(x1, y1), point(x2, y2)];
    annot.set(PDFName.of('Rect'), annot.context.obj([Math.min(p[0], q[0]), Math.min(p[1], q[1]), Math.max(p[0], q[0]), Math.max(p[1], q[1])]));
    const quads = annot.lookupMaybe(PDFName.of('QuadPoints'), PDFArray);
    if (quads && quads.size() % 2 === 0) {
      const values = numbers(quads);
      if (values.some(Number.isNaN)) continue;
      const moved: number[] = [];
      for (let i = 0; i < values.length; i += 2) moved.push(...point(values[i]!, values[i + 1]!));
      annot.set(PDFName.of('QuadPoints'), annot.context.obj(moved));
    }
  }
}

/**
 * One instance as a Form XObject cut to its box. The instance's content stream is taken as it
 * was compressed (no decode and re-encode, which cost most of the stamping), its resources
 * copied through the shared copier.
 */
function embedInstance(doc: PDFDocument, copier: PDFObjectCopier, source: PDFPage, box: Pick<StampBox, 'width' | 'height'>): PDFRef {
  // The instance is at the top-left of its page: cut the box out of it (the page as printed,
  // which Chromium snaps to whole pixels).
  const top = source.getHeight();
  const { Contents, Resources } = source.node.normalizedEntries();
  const form = {
    Type: 'XObject',
    Subtype: 'Form',
    FormType: 1,
    BBox: [0, top - box.height, box.width, top],
    Matrix: [1, 0, 0, 1, 0, -(top - box.height)],
    Resources: Resources ? copier.copy(Resources) : doc.context.obj({}),
  };
  const only = Contents?.size() === 1 ? Contents.lookup(0) : undefined;
  if (only instanceof PDFRawStream) {
    const dict = doc.context.obj(form);
    for (const entry of ['Filter', 'DecodeParms']) {
      const value = only.dict.get(PDFName.of(entry));
      if (value) dict.set(PDFName.of(entry), copier.copy(value));
    }
    return doc.context.register(PDFRawStream.of(dict, only.contents));
  }
  // Another layout (several streams): joined and compressed anew.
  const parts: Uint8Array[] = [];
  for (let i = 0; i < (Contents?.size() ?? 0); i++) {
    const stream = Contents!.lookup(i);
    if (stream instanceof PDFRawStream) parts.push(decodePDFRawStream(stream).decode(), new Uint8Array([10]));
  }
  return doc.context.register(doc.context.flateStream(Buffer.concat(parts), form));
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
