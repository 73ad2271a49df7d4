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

/** Where an image is drawn on a page, in points from the bottom-left corner. */
export interface ImagePlacement {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The images each page draws (form XObjects followed), by the transform in force when drawn. */
export async function imagesOf(bytes: Uint8Array): Promise<ImagePlacement[][]> {
  const document = await getDocument({ data: bytes.slice(), useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  const pages: ImagePlacement[][] = [];
  try {
    for (let number = 1; number <= document.numPages; number++) {
      const operators = await (await document.getPage(number)).getOperatorList();
      const placements: ImagePlacement[] = [];
      let matrix = [1, 0, 0, 1, 0, 0];
      const stack: number[][] = [];
      const apply = (m: number[]) => {
        const [a, b, c, d, e, f] = matrix as [number, number, number, number, number, number];
        const [a2, b2, c2, d2, e2, f2] = m as [number, number, number, number, number, number];
        matrix = [a2 * a + b2 * c, a2 * b + b2 * d, c2 * a + d2 * c, c2 * b + d2 * d, e2 * a + f2 * c + e, e2 * b + f2 * d + f];
      };
      operators.fnArray.forEach((fn, index) => {
        const args = operators.argsArray[index] as unknown[];
        if (fn === OPS.save || fn === OPS.paintFormXObjectBegin) stack.push(matrix);
        if (fn === OPS.restore || fn === OPS.paintFormXObjectEnd) matrix = stack.pop() ?? matrix;
        if (fn === OPS.transform) apply(Array.from(args as ArrayLike<number>));
        // The form's own matrix (pdf.js may hand it over as a typed array).
        if (fn === OPS.paintFormXObjectBegin && args[0] && typeof (args[0] as ArrayLike<number>).length === 'number')
          apply(Array.from(args[0] as ArrayLike<number>));
        if (fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject) {
          placements.push({ x: matrix[4]!, y: matrix[5]!, width: matrix[0]!, height: matrix[3]! });
        }
      });
      pages.push(placements);
    }
  } finally {
    await document.destroy();
  }
  return pages;
}
