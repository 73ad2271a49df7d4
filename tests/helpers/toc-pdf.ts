// Reads a table of contents back from a PDF with tools apart from the code under test: its lines
// and numbers from pdftotext, the pages its links open and the outline's pages from pdf-lib, and
// the 40-page Markdown report the TOC tests and the bench print.

import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFRef, PDFString, type PDFObject } from 'pdf-lib';

const WORDS = ['Alder', 'Birch', 'Cedar', 'Dogwood', 'Elm', 'Fir', 'Ginkgo', 'Hazel', 'Ironwood', 'Juniper', 'Larch', 'Maple'];
const PARTS = ['Roots', 'Bark', 'Leaves'];
const FILLER =
  'The survey walked each plot twice, once in spring and once in autumn, and wrote down what grew there, how tall it stood and ' +
  'how much light reached the ground beneath it. The notes below are the counts as taken, with the weather of the day.';

/** The report's headings in order: a chapter (h1) per word, three parts (h2) each. */
export function reportHeadings(): { level: 1 | 2; title: string }[] {
  return WORDS.flatMap((word, i) => [
    { level: 1 as const, title: `Chapter ${i + 1} ${word}` },
    ...PARTS.map((part, j) => ({ level: 2 as const, title: `Part ${i + 1}.${j + 1} ${word} ${part}` })),
  ]);
}

/** A Markdown report of about 40 A4 pages: 12 chapters of 3 parts, each part of paragraphs. */
export function reportMarkdown(paragraphs = 12): string {
  return reportHeadings()
    .map(({ level, title }) => `${'#'.repeat(level)} ${title}\n\n${level === 2 ? Array.from({ length: paragraphs }, () => FILLER).join('\n\n') : FILLER}\n`)
    .join('\n');
}

/** A TOC line as pdftotext -layout prints it: the title, then its number (none when the heading was not printed). */
export function tocNumber(pageText: string, title: string): number | null | undefined {
  const line = pageText.split('\n').find((candidate) => candidate.trim().startsWith(title));
  if (line === undefined) return undefined;
  const match = /\s(\d+)\s*$/.exec(line.trim().slice(title.length));
  return match ? Number(match[1]) : null;
}

/** The 1-based page after the TOC pages where a heading's text is printed, or null. */
export function printedOn(pages: string[], title: string, after: number): number | null {
  for (let i = after; i < pages.length; i++) if (pages[i]!.split('\n').some((line) => line.trim() === title)) return i + 1;
  return null;
}

async function destinationsOf(doc: PDFDocument): Promise<{ pageOf: (dest: PDFObject | undefined) => number | undefined }> {
  const index = new Map<PDFRef, number>(doc.getPages().map((page, i) => [page.ref, i + 1]));
  const named = doc.catalog.lookupMaybe(PDFName.of('Dests'), PDFDict);
  const pageOf = (dest: PDFObject | undefined): number | undefined => {
    let target = dest;
    if (target instanceof PDFName) target = named?.lookup(target);
    if (target instanceof PDFString || target instanceof PDFHexString) target = named?.lookup(PDFName.of(target.decodeText()));
    if (target instanceof PDFRef) target = doc.context.lookup(target);
    if (target instanceof PDFDict) target = target.lookup(PDFName.of('D'));
    const page = target instanceof PDFArray ? target.get(0) : undefined;
    return page instanceof PDFRef ? index.get(page) : undefined;
  };
  return { pageOf };
}

/** The pages the internal links of the given pages open, top to bottom (undefined: a link that opens no page). */
export async function linkPages(pdf: Uint8Array, pages: number[]): Promise<(number | undefined)[]> {
  const doc = await PDFDocument.load(pdf);
  const { pageOf } = await destinationsOf(doc);
  return pages.flatMap((number) => {
    const annots = doc.getPage(number - 1).node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    const links = (annots?.asArray() ?? [])
      .map((ref) => doc.context.lookup(ref))
      .filter((annot): annot is PDFDict => annot instanceof PDFDict && annot.lookup(PDFName.of('Subtype')) === PDFName.of('Link'))
      .map((annot) => {
        const action = annot.lookupMaybe(PDFName.of('A'), PDFDict);
        const dest = annot.get(PDFName.of('Dest')) ?? action?.get(PDFName.of('D'));
        const top = annot.lookup(PDFName.of('Rect'), PDFArray).lookup(3, PDFNumber).asNumber();
        return { top, page: dest === undefined ? undefined : pageOf(dest), internal: dest !== undefined };
      })
      .filter((link) => link.internal);
    return links.sort((a, b) => b.top - a.top).map((link) => link.page);
  });
}

/** The outline's entries, depth first, with the page each opens. */
export async function outlinePages(pdf: Uint8Array): Promise<{ title: string; page: number | undefined }[]> {
  const doc = await PDFDocument.load(pdf);
  const { pageOf } = await destinationsOf(doc);
  const out: { title: string; page: number | undefined }[] = [];
  const walk = (item: PDFDict | undefined, depth: number) => {
    for (let entry = item; entry && depth < 16 && out.length < 10_000; entry = entry.lookupMaybe(PDFName.of('Next'), PDFDict)) {
      const action = entry.lookupMaybe(PDFName.of('A'), PDFDict);
      const title = entry.lookupMaybe(PDFName.of('Title'), PDFString, PDFHexString)?.decodeText() ?? '';
      out.push({ title, page: pageOf(entry.get(PDFName.of('Dest')) ?? action?.get(PDFName.of('D'))) });
      walk(entry.lookupMaybe(PDFName.of('First'), PDFDict), depth + 1);
    }
  };
  walk(doc.catalog.lookupMaybe(PDFName.of('Outlines'), PDFDict)?.lookupMaybe(PDFName.of('First'), PDFDict), 0);
  return out;
}
