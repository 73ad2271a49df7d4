// Joins PDFs into one, sources in order, each optionally cut to a page list; then applies the
// post-processing options to the result. With outline, each source gets one bookmark (its title,
// or "Document N") that opens its first page, with the source's own bookmarks (a render's
// headings with outline: true) nested under it where their pages were kept. Runs in the PDF
// worker thread.

import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, type PDFObject, type PDFPage, type PDFRef, PDFString } from '@cantoo/pdf-lib';
import { readOutlineTree, type OutlineEntry } from './outline.ts';
import type { FinishOptions } from './finish-options.ts';
import { applyFinish } from './finish.ts';
import { QUIRE_CREATOR } from './creator.ts';
import { MergeSourceError } from './merge-errors.ts';
import type { Chapters, MergePart } from './pdf-task.ts';
import { selectPages } from './page-list.ts';
import { copyTagged, isTagged, startStructure, type StructureMerge } from './ua/merge-structure.ts';

/** The merge's options: the finish, an outline, and `structure` (pdf_ua) to keep every source's structure tree. */
export type MergeOptions = FinishOptions & { outline?: boolean; structure?: boolean; chapters?: Chapters };

/** One PDF of the parts' pages; throws MergeSourceError for a damaged or encrypted part or a page it lacks. */
export async function mergePdfs(parts: MergePart[], options: MergeOptions): Promise<Uint8Array> {
  const merged = await PDFDocument.create();
  // pdf-lib names itself; Quire made the whole (a caller's metadata.creator is written after).
  merged.setCreator(QUIRE_CREATOR);
  const bookmarks: Bookmark[] = [];
  const structure = options.structure ? startStructure(merged) : undefined;
  const firstPages: (PDFRef | undefined)[] = [];
  for (const [index, part] of parts.entries()) {
    const source = await loadPart(part.pdf, index);
    const { pages, kept } = structure ? copyWithStructure(merged, source, part, index, structure) : await copyFrom(merged, source, part, index);
    for (const page of pages) merged.addPage(page);
    firstPages.push(pages[0]?.ref);
    if (!pages[0] || !options.outline) continue;
    // A source page kept twice opens at its first copy.
    const pageMap = new Map<PDFRef, PDFRef>();
    kept.forEach((sourceIndex, i) => {
      const ref = source.getPage(sourceIndex).ref;
      if (!pageMap.has(ref)) pageMap.set(ref, pages[i]!.ref);
    });
    const children = readOutline(source, pageMap);
    const title = options.chapters?.titles[index] || source.getTitle() || `Document ${index + 1}`;
    bookmarks.push({ title, dest: [pages[0].ref, PDFName.of('Fit')], children });
  }
  if (options.outline) writeOutline(merged, bookmarks);
  if (options.chapters) linkChapters(merged, firstPages, options.chapters.linkPrefix);
  await applyFinish(merged, options);
  return merged.save();
}

async function loadPart(bytes: Uint8Array, index: number): Promise<PDFDocument> {
  let doc: PDFDocument;
  try {
    // Loaded without decrypting, so an encrypted upload is told apart from a damaged one.
    doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  } catch {
    throw unreadable(index);
  }
  if (doc.isEncrypted) throw new MergeSourceError(index, `sources[${index}] is encrypted; upload it without a password`);
  return doc;
}

/** Copies pages, turning a damaged object tree (found only while copying) into the source's error; also says which source pages. */
async function copyFrom(merged: PDFDocument, source: PDFDocument, part: MergePart, index: number): Promise<{ pages: PDFPage[]; kept: number[] }> {
  try {
    const count = source.getPageCount();
    if (count === 0) throw new MergeSourceError(index, `sources[${index}] has no pages`);
    let indexes = source.getPageIndices();
    if (part.pages) {
      const selected = selectPages(part.pages, count);
      if (selected.missing !== undefined)
        throw new MergeSourceError(
          index,
          `sources[${index}].page_ranges names page ${selected.missing}, but the document has ${count} page${count === 1 ? '' : 's'}`,
        );
      indexes = selected.indexes;
    }
    return { pages: await merged.copyPages(source, indexes), kept: indexes };
  } catch (error) {
    throw error instanceof MergeSourceError ? error : unreadable(index);
  }
}

/** A tagged source, whole, with its structure tree (pdf_ua); an untagged one or a cut is refused, naming the source. */
function copyWithStructure(
  merged: PDFDocument,
  source: PDFDocument,
  part: MergePart,
  index: number,
  into: StructureMerge,
): { pages: PDFPage[]; kept: number[] } {
  if (!isTagged(source))
    throw new MergeSourceError(
      index,
      `sources[${index}] is not tagged (no structure tree), so the merge cannot be PDF/UA: render it with pdf_ua or tagged: true, or leave options.pdf_ua out`,
      'untagged',
    );
  if (part.pages)
    throw new MergeSourceError(
      index,
      `sources[${index}].page_ranges cannot be kept with options.pdf_ua: a cut would leave structure elements without their pages`,
    );
  try {
    return { pages: copyTagged(merged, source, into), kept: source.getPageIndices() };
  } catch {
    throw unreadable(index);
  }
}

function unreadable(index: number): MergeSourceError {
  return new MergeSourceError(index, `sources[${index}] is not a readable PDF`);
}

interface Bookmark {
  title: string;
  /** An explicit destination: [page, /XYZ left top zoom] or [page, /Fit]. */
  dest: PDFObject[];
  children: Bookmark[];
}

/**
 * A source's outline with its destinations moved to the merged pages; an entry whose page was
 * not kept is left out and its children take its place. Entries without an explicit
 * destination (named ones) are left out the same way.
 */
function readOutline(source: PDFDocument, pageMap: Map<PDFRef, PDFRef>): Bookmark[] {
  const moved = (entries: OutlineEntry[]): Bookmark[] =>
    entries.flatMap((entry) => {
      const children = moved(entry.children);
      const target = entry.page && pageMap.get(entry.page);
      return entry.dest && target && entry.title !== undefined ? [{ title: entry.title, dest: [target, ...entry.dest.slice(1)], children }] : children;
    });
  return moved(readOutlineTree(source));
}

/**
 * Turns the links of the first part's pages (the table of contents) that point at `prefix` + N
 * into links to part N's first page: the TOC was printed before the parts were joined, so it
 * could only name them.
 */
function linkChapters(doc: PDFDocument, firstPages: (PDFRef | undefined)[], prefix: string): void {
  const pages = doc.getPages();
  const tocEnd = firstPages[1] ? pages.findIndex((page) => page.ref === firstPages[1]) : pages.length;
  for (const page of pages.slice(0, tocEnd)) {
    for (const annot of page.node.lookupMaybe(PDFName.of('Annots'), PDFArray)?.asArray() ?? []) {
      const link = doc.context.lookup(annot);
      if (!(link instanceof PDFDict)) continue;
      const uri = link.lookupMaybe(PDFName.of('A'), PDFDict)?.lookupMaybe(PDFName.of('URI'), PDFString, PDFHexString)?.decodeText();
      const chapter = uri?.startsWith(prefix) ? Number(uri.slice(prefix.length)) : Number.NaN;
      const target = Number.isInteger(chapter) ? firstPages[chapter + 1] : undefined;
      if (!target) continue;
      link.delete(PDFName.of('A'));
      link.set(PDFName.of('Dest'), doc.context.obj([target, PDFName.of('Fit')]));
    }
  }
}

/** Writes bookmarks as the document outline, every level open. */
function writeOutline(doc: PDFDocument, bookmarks: Bookmark[]): void {
  if (bookmarks.length === 0) return;
  const { context } = doc;
  const rootRef = context.nextRef();
  const writeLevel = (items: Bookmark[], parent: PDFRef): { first: PDFRef; last: PDFRef; count: number } => {
    const refs = items.map(() => context.nextRef());
    let count = items.length;
    items.forEach((bookmark, i) => {
      const item = context.obj({}) as PDFDict;
      item.set(PDFName.of('Title'), PDFHexString.fromText(bookmark.title));
      item.set(PDFName.of('Parent'), parent);
      item.set(PDFName.of('Dest'), context.obj(bookmark.dest));
      if (i > 0) item.set(PDFName.of('Prev'), refs[i - 1]!);
      if (i < refs.length - 1) item.set(PDFName.of('Next'), refs[i + 1]!);
      if (bookmark.children.length > 0) {
        const level = writeLevel(bookmark.children, refs[i]!);
        item.set(PDFName.of('First'), level.first);
        item.set(PDFName.of('Last'), level.last);
        item.set(PDFName.of('Count'), PDFNumber.of(level.count));
        count += level.count;
      }
      context.assign(refs[i]!, item);
    });
    return { first: refs[0]!, last: refs[refs.length - 1]!, count };
  };
  const level = writeLevel(bookmarks, rootRef);
  const root = context.obj({}) as PDFDict;
  root.set(PDFName.of('Type'), PDFName.of('Outlines'));
  root.set(PDFName.of('First'), level.first);
  root.set(PDFName.of('Last'), level.last);
  root.set(PDFName.of('Count'), PDFNumber.of(level.count));
  context.assign(rootRef, root);
  doc.catalog.set(PDFName.of('Outlines'), rootRef);
}
