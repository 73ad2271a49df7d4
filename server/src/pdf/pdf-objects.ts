// Walks of a loaded PDF that the PDF/A step and its conformance checker share: the embedded
// files of the name tree, every font dictionary the pages use (in forms and annotation
// appearances too), and every object of the file.

import { PDFArray, PDFDict, PDFName, PDFRef, PDFStream, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';

export interface EmbeddedFileSpec {
  name: string;
  ref: PDFRef | undefined;
  spec: PDFDict;
}

/** The file specifications of the document's EmbeddedFiles name tree. */
export function embeddedFileSpecs(doc: PDFDocument): EmbeddedFileSpec[] {
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const root = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const out: EmbeddedFileSpec[] = [];
  const visit = (node: PDFDict, depth: number) => {
    if (depth > 32) return;
    const pairs = node.lookupMaybe(PDFName.of('Names'), PDFArray);
    for (let i = 0; i + 1 < (pairs?.size() ?? 0); i += 2) {
      const key = pairs!.lookup(i);
      const raw = pairs!.get(i + 1);
      const spec = pairs!.lookup(i + 1);
      if (spec instanceof PDFDict)
        out.push({
          name: key && 'decodeText' in key ? (key as { decodeText(): string }).decodeText() : '',
          ref: raw instanceof PDFRef ? raw : undefined,
          spec,
        });
    }
    const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
    for (let i = 0; i < (kids?.size() ?? 0); i++) {
      const kid = kids!.lookup(i);
      if (kid instanceof PDFDict) visit(kid, depth + 1);
    }
  };
  if (root) visit(root, 0);
  return out;
}

/** Every font dictionary reachable from the pages' resources (forms, patterns, annotation appearances, Type 3 glyphs). */
export function usedFonts(doc: PDFDocument): PDFDict[] {
  const fonts = new Set<PDFDict>();
  const seen = new Set<PDFObject>();
  const visitResources = (resources: PDFObject | undefined, depth: number) => {
    if (!(resources instanceof PDFDict) || seen.has(resources) || depth > 16) return;
    seen.add(resources);
    const fontDict = resources.lookupMaybe(PDFName.of('Font'), PDFDict);
    for (const [, value] of fontDict?.entries() ?? []) {
      const font = doc.context.lookup(value);
      if (font instanceof PDFDict) {
        fonts.add(font);
        visitResources(font.lookup(PDFName.of('Resources')), depth + 1);
      }
    }
    for (const key of ['XObject', 'Pattern']) {
      for (const [, value] of resources.lookupMaybe(PDFName.of(key), PDFDict)?.entries() ?? []) {
        const object = doc.context.lookup(value);
        const dict = object instanceof PDFStream ? object.dict : object;
        if (dict instanceof PDFDict) visitResources(dict.lookup(PDFName.of('Resources')), depth + 1);
      }
    }
  };
  for (const page of doc.getPages()) {
    visitResources(page.node.Resources(), 0);
    const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    for (let i = 0; i < (annots?.size() ?? 0); i++) {
      const appearances = (annots!.lookup(i) as PDFDict | undefined)?.lookup?.(PDFName.of('AP'));
      if (!(appearances instanceof PDFDict)) continue;
      for (const [, value] of appearances.entries()) {
        const object = doc.context.lookup(value);
        if (object instanceof PDFStream) visitResources(object.dict.lookup(PDFName.of('Resources')), 1);
      }
    }
  }
  return [...fonts];
}

/** Every indirect object of the file with its reference. */
export function allObjects(doc: PDFDocument): [PDFRef, PDFObject][] {
  return doc.context.enumerateIndirectObjects();
}
