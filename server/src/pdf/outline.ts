// Reads a PDF's outline (its bookmarks) as a tree whose entries point at page objects: what a
// merge carries over into the merged outline (merge.ts), and where the sections of a PDF we did
// not lay out begin (pdf-layout.ts: LibreOffice writes one bookmark per heading).

import { PDFArray, PDFDict, PDFHexString, PDFName, PDFRef, PDFString, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';

export interface OutlineEntry {
  title?: string;
  /** The explicit destination ([page, /XYZ left top zoom], [page, /Fit], ...), from /Dest or a GoTo action. */
  dest?: PDFObject[];
  /** The page object the destination opens, when it names one. */
  page?: PDFRef;
  children: OutlineEntry[];
}

const MAX_OUTLINE_DEPTH = 16;
const MAX_OUTLINE_ENTRIES = 20_000;

/** The document's outline, in reading order; named destinations are left without a page. */
export function readOutlineTree(doc: PDFDocument): OutlineEntry[] {
  const root = doc.catalog.lookupMaybe(PDFName.of('Outlines'), PDFDict);
  const seen = new Set<PDFDict>();
  const walk = (first: PDFDict | undefined, depth: number): OutlineEntry[] => {
    const out: OutlineEntry[] = [];
    // A damaged file may loop its Next or First links: each entry is read once.
    for (
      let item = first;
      item && !seen.has(item) && depth < MAX_OUTLINE_DEPTH && seen.size < MAX_OUTLINE_ENTRIES;
      item = item.lookupMaybe(PDFName.of('Next'), PDFDict)
    ) {
      seen.add(item);
      const children = walk(item.lookupMaybe(PDFName.of('First'), PDFDict), depth + 1);
      const action = item.lookupMaybe(PDFName.of('A'), PDFDict);
      const goTo = action?.lookupMaybe(PDFName.of('S'), PDFName) === PDFName.of('GoTo') ? action.lookupMaybe(PDFName.of('D'), PDFArray) : undefined;
      const dest = item.lookupMaybe(PDFName.of('Dest'), PDFArray) ?? goTo;
      const page = dest?.get(0);
      out.push({
        title: item.lookupMaybe(PDFName.of('Title'), PDFString, PDFHexString)?.decodeText(),
        dest: dest?.asArray(),
        page: page instanceof PDFRef ? page : undefined,
        children,
      });
    }
    return out;
  };
  return root ? walk(root.lookupMaybe(PDFName.of('First'), PDFDict), 0) : [];
}
