// Where a PDF's named destinations land: the 0-based page each name opens. Chromium writes one
// named destination per element a link in the page points to (#id), in the catalog's /Dests
// dictionary, and only for pages it printed (page_ranges): what the table of contents reads its
// page numbers from (render/toc-pass.ts).

import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFString, PDFHexString, type PDFObject } from '@cantoo/pdf-lib';

const PARSE = { updateMetadata: false, throwOnInvalidObject: false } as const;
/** A name tree deeper than this is damaged (or hostile): the rest of it is not read. */
const MAX_TREE_DEPTH = 32;

/** Per name asked, in order, the 0-based page its destination opens, or -1 when the PDF has none (not printed). */
export interface DestinationPages {
  pages: number[];
}

export async function pagesOfDestinations(bytes: Uint8Array, names: string[]): Promise<DestinationPages> {
  const doc = await PDFDocument.load(bytes, PARSE);
  const pageIndex = new Map<PDFRef, number>(doc.getPages().map((page, index) => [page.ref, index]));
  const found = new Map<string, number>();
  const record = (name: string, dest: PDFObject | undefined) => {
    const array = dest instanceof PDFDict ? dest.lookupMaybe(PDFName.of('D'), PDFArray) : dest instanceof PDFArray ? dest : undefined;
    const page = array?.get(0);
    const index = page instanceof PDFRef ? pageIndex.get(page) : undefined;
    if (index !== undefined && !found.has(name)) found.set(name, index);
  };
  // The PDF 1.1 form Chromium writes: /Dests << /name [page /XYZ ...] >>.
  const dests = doc.catalog.lookupMaybe(PDFName.of('Dests'), PDFDict);
  for (const [key, value] of dests?.entries() ?? []) record(key.decodeText(), doc.context.lookup(value));
  // The name tree form (/Names /Dests), should another writer have made the file.
  const tree = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.lookupMaybe(PDFName.of('Dests'), PDFDict);
  const walk = (node: PDFDict, depth: number) => {
    const pairs = node.lookupMaybe(PDFName.of('Names'), PDFArray);
    for (let i = 0; pairs && i + 1 < pairs.size(); i += 2) {
      const key = pairs.lookup(i);
      if (key instanceof PDFString || key instanceof PDFHexString) record(key.decodeText(), pairs.lookup(i + 1));
    }
    const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
    for (let i = 0; kids && depth < MAX_TREE_DEPTH && i < kids.size(); i++) {
      const kid = kids.lookup(i);
      if (kid instanceof PDFDict) walk(kid, depth + 1);
    }
  };
  if (tree) walk(tree, 0);
  return { pages: names.map((name) => found.get(name) ?? -1) };
}
