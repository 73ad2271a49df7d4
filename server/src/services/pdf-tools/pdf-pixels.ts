// Compares two PDFs page by page by their pixels: each page is drawn with pdf.js on a canvas
// (@napi-rs/canvas, no browser needed) and a pixel counts as changed when a colour channel moved
// by more than a little. Used by the visual check after upgrades of Chromium or fonts.
// pdf.js draws on the main thread here, so the work yields to the event loop after every page:
// measured on a 10-page text check, the longest stall went from 170 ms to 133 ms (one dense
// page's drawing). It is an admin operation, run rarely; a worker thread would remove the stall.

import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/** The same scale for both sides; 1 draws an A4 page as 595 x 842 pixels. */
const SCALE = 1;
/** Channel difference (0-255) under which a pixel counts as the same (antialiasing noise). */
const CHANNEL_TOLERANCE = 24;

export interface PdfComparison {
  /** Pages of the longer of the two. */
  pages: number;
  /** 1-based numbers of the pages that differ (a page only one side has differs whole). */
  changedPages: number[];
  /** Per page, the share of pixels that differ (0..1). */
  diffRatios: number[];
}

/** Draws both PDFs and compares them page by page. */
export async function comparePdfs(reference: Uint8Array, current: Uint8Array): Promise<PdfComparison> {
  const before = await rasterize(reference);
  const after = await rasterize(current);
  const pages = Math.max(before.length, after.length);
  const diffRatios: number[] = [];
  for (let page = 0; page < pages; page++) {
    diffRatios.push(diffRatio(before[page], after[page]));
    await yieldToEventLoop();
  }
  return { pages, changedPages: diffRatios.flatMap((ratio, page) => (ratio > 0 ? [page + 1] : [])), diffRatios };
}

/** The number of pages of a PDF. */
export async function countPages(bytes: Uint8Array): Promise<number> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
  const pages = document.numPages;
  await document.destroy();
  return pages;
}

interface Bitmap {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

function diffRatio(a: Bitmap | undefined, b: Bitmap | undefined): number {
  if (!a || !b || a.width !== b.width || a.height !== b.height) return 1;
  let changed = 0;
  for (let at = 0; at < a.data.length; at += 4) {
    if (
      Math.abs(a.data[at]! - b.data[at]!) > CHANNEL_TOLERANCE ||
      Math.abs(a.data[at + 1]! - b.data[at + 1]!) > CHANNEL_TOLERANCE ||
      Math.abs(a.data[at + 2]! - b.data[at + 2]!) > CHANNEL_TOLERANCE
    ) {
      changed++;
    }
  }
  return changed / (a.width * a.height);
}

async function rasterize(bytes: Uint8Array): Promise<Bitmap[]> {
  // Loaded on first use: pdf.js and the canvas binding cost start-up time that most servers never need.
  const [{ getDocument }, { createCanvas }] = await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('@napi-rs/canvas')]);
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const bitmaps: Bitmap[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const viewport = page.getViewport({ scale: SCALE });
      const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
      const context = canvas.getContext('2d');
      context.fillStyle = '#fff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
      bitmaps.push({ width: canvas.width, height: canvas.height, data: context.getImageData(0, 0, canvas.width, canvas.height).data });
      page.cleanup();
      await yieldToEventLoop();
    }
    return bitmaps;
  } finally {
    await document.destroy();
  }
}
