// Joins PDFs into one, sources in order, each optionally cut to a page list; then applies the
// post-processing options to the result. With outline, each source gets one bookmark (its title,
// or "Document N") that opens its first page. Runs in the PDF worker thread.

import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, type PDFPage, type PDFRef } from '@cantoo/pdf-lib';
import type { FinishOptions } from './finish-options.ts';
import { applyFinish } from './finish.ts';
import { MergeSourceError } from './merge-errors.ts';
import type { MergePart } from './pdf-task.ts';
import { selectPages } from './page-list.ts';

/** One PDF of the parts' pages; throws MergeSourceError for a damaged or encrypted part or a page it lacks. */
export async function mergePdfs(parts: MergePart[], options: FinishOptions & { outline?: boolean }): Promise<Uint8Array> {
  const merged = await PDFDocument.create();
  const bookmarks: { title: string; page: PDFRef }[] = [];
  for (const [index, part] of parts.entries()) {
    const source = await loadPart(part.pdf, index);
    const pages = await copyFrom(merged, source, part, index);
    for (const page of pages) merged.addPage(page);
    if (pages[0]) bookmarks.push({ title: source.getTitle() || `Document ${index + 1}`, page: pages[0].ref });
  }
  if (options.outline) writeOutline(merged, bookmarks);
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

/** Copies pages, turning a damaged object tree (found only while copying) into the source's error. */
async function copyFrom(merged: PDFDocument, source: PDFDocument, part: MergePart, index: number): Promise<PDFPage[]> {
  try {
    const count = source.getPageCount();
    if (count === 0) throw new MergeSourceError(index, `sources[${index}] has no pages`);
    let indexes = source.getPageIndices();
    if (part.pages) {
      const selected = selectPages(part.pages, count);
      if (selected.missing !== undefined) throw new MergeSourceError(index, `sources[${index}].page_ranges names page ${selected.missing}, but the document has ${count} page${count === 1 ? '' : 's'}`);
      indexes = selected.indexes;
    }
    return await merged.copyPages(source, indexes);
  } catch (error) {
    throw error instanceof MergeSourceError ? error : unreadable(index);
  }
}

function unreadable(index: number): MergeSourceError {
  return new MergeSourceError(index, `sources[${index}] is not a readable PDF`);
}

/** A flat outline: one entry per source, each opening the top of its first page. */
function writeOutline(doc: PDFDocument, bookmarks: { title: string; page: PDFRef }[]): void {
  if (bookmarks.length === 0) return;
  const { context } = doc;
  const rootRef = context.nextRef();
  const refs = bookmarks.map(() => context.nextRef());
  bookmarks.forEach((bookmark, i) => {
    const item = context.obj({}) as PDFDict;
    item.set(PDFName.of('Title'), PDFHexString.fromText(bookmark.title));
    item.set(PDFName.of('Parent'), rootRef);
    item.set(PDFName.of('Dest'), context.obj([bookmark.page, PDFName.of('Fit')]));
    if (i > 0) item.set(PDFName.of('Prev'), refs[i - 1]!);
    if (i < refs.length - 1) item.set(PDFName.of('Next'), refs[i + 1]!);
    context.assign(refs[i]!, item);
  });
  const root = context.obj({}) as PDFDict;
  root.set(PDFName.of('Type'), PDFName.of('Outlines'));
  root.set(PDFName.of('First'), refs[0]!);
  root.set(PDFName.of('Last'), refs[refs.length - 1]!);
  root.set(PDFName.of('Count'), PDFNumber.of(refs.length));
  context.assign(rootRef, root);
  doc.catalog.set(PDFName.of('Outlines'), rootRef);
}
