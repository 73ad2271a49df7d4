// Where things sit in a PDF, for layout assertions: each text run with its position and font
// size, and the fill colours each page paints (pdfjs-dist's operator list). Positions are in PDF
// points from the bottom-left corner of the page.

import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface TextRun {
  text: string;
  x: number;
  y: number;
  width: number;
  /** Font size in points, as drawn (scale included). */
  size: number;
}

export interface PageLayout {
  width: number;
  height: number;
  runs: TextRun[];
  /** Fill colours set on the page, as lower-case #rrggbb. */
  fills: Set<string>;
}

export async function layoutOf(bytes: Uint8Array | ArrayBuffer): Promise<PageLayout[]> {
  const data = bytes instanceof ArrayBuffer ? new Uint8Array(bytes.slice(0)) : bytes.slice();
  const document = await getDocument({ data, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  const pages: PageLayout[] = [];
  try {
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const [x0, y0, x1, y1] = page.view as [number, number, number, number];
      const content = await page.getTextContent();
      const runs: TextRun[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const [a, b, , , e, f] = item.transform as number[];
        runs.push({ text: item.str, x: e!, y: f!, width: item.width, size: Math.hypot(a!, b!) });
      }
      const operators = await page.getOperatorList();
      const fills = new Set<string>();
      operators.fnArray.forEach((fn, index) => {
        if (fn === OPS.setFillRGBColor) fills.add(String((operators.argsArray[index] as unknown[])[0]).toLowerCase());
      });
      pages.push({ width: x1 - x0, height: y1 - y0, runs, fills });
    }
  } finally {
    await document.destroy();
  }
  return pages;
}

/** The first run whose text contains `text`, on any page; throws when there is none. */
export function runOf(pages: PageLayout[], text: string): TextRun & { page: number } {
  for (const [index, page] of pages.entries()) {
    const run = page.runs.find((candidate) => candidate.text.includes(text));
    if (run) return { ...run, page: index + 1 };
  }
  throw new Error(`no text run contains "${text}"`);
}
