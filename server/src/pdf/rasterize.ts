// Draws PDF pages as PNG, JPEG or WebP images (POST /v1/pdf/images, thumbnails): pdf.js lays each
// page out on an @napi-rs/canvas (the renderer the visual check uses, services/pdf-tools/pdf-pixels.ts), on
// a PDF worker thread. Every page's pixel size is known before any is drawn, so a call past the
// pixel or page limits is refused before work starts; a time budget is checked between pages.

import { createRequire } from 'node:module';
import path from 'node:path';
import { PdfInputError, PdfStepError, PdfToolTimeoutError } from './pdf-errors.ts';
import { selectPages } from './page-list.ts';

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export interface RasterRequest {
  /** Opened by readPdfInput (decrypted, within the input limits). */
  pdf: Uint8Array;
  /** Names the PDF in errors ("pdf", "document_id"). */
  field: string;
  /** A page list ("1-3, 5"); all pages when absent. */
  pages?: string;
  format: ImageFormat;
  /** 1-100, for jpeg and webp. */
  quality?: number;
  /** Pixels per inch; or `width`, the pixel width of every image (height follows the page). */
  dpi?: number;
  width?: number;
  limits: RasterLimits;
}

export interface RasterLimits {
  /** Pixels (width × height) one page's image may have. */
  pagePixels: number;
  /** Pixels all the call's images may have together. */
  totalPixels: number;
  pages: number;
  /** Drawing stops, and the call fails, once this many milliseconds have passed (checked between pages). */
  timeoutMs: number;
}

export interface RasterImage {
  page: number;
  width: number;
  height: number;
  bytes: Uint8Array;
}

const MIME: Record<ImageFormat, 'image/png' | 'image/jpeg' | 'image/webp'> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/** pdf.js's own files: the standard 14 fonts (for PDFs that do not embed them), CMaps, the JPEG 2000 decoder. */
function pdfjsAssets(): { standardFontDataUrl: string; cMapUrl: string; wasmUrl: string } {
  const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const folder = (name: string) => `${path.join(root, name)}${path.sep}`;
  return { standardFontDataUrl: folder('standard_fonts'), cMapUrl: folder('cmaps'), wasmUrl: folder('wasm') };
}

/** The images of the pages asked, in the order asked; throws PdfInputError past the limits, PdfStepError for a page it lacks. */
export async function rasterizePdf(request: RasterRequest): Promise<RasterImage[]> {
  const started = performance.now();
  const { field, limits } = request;
  // Loaded on first use: pdf.js and the canvas binding cost start-up time that most servers never need.
  const [{ getDocument }, { createCanvas }] = await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('@napi-rs/canvas')]);
  const task = getDocument({
    data: new Uint8Array(request.pdf),
    isEvalSupported: false,
    // No script of the document runs, and nothing is fetched but pdf.js's own files.
    enableXfa: false,
    cMapPacked: true,
    ...pdfjsAssets(),
    verbosity: 0,
  });
  let document: Awaited<typeof task.promise>;
  try {
    document = await task.promise;
  } catch (error) {
    throw new PdfInputError('unreadable', field, `${field} cannot be drawn: ${(error as Error).message}`);
  }
  try {
    const { indexes, missing } = request.pages
      ? selectPages(request.pages, document.numPages)
      : { indexes: [...Array(document.numPages).keys()], missing: undefined };
    if (missing !== undefined) throw new PdfStepError('pages', `pages names page ${missing}, but ${field} has ${document.numPages}`);
    if (indexes.length > limits.pages)
      throw new PdfInputError('too_large', 'pages', `${indexes.length} pages asked; one call draws at most ${limits.pages} (ask for some with pages)`);
    const plans = [];
    let total = 0;
    for (const index of indexes) {
      const page = await document.getPage(index + 1);
      const natural = page.getViewport({ scale: 1 });
      const scale = request.width !== undefined ? request.width / natural.width : (request.dpi ?? 150) / 72;
      const viewport = page.getViewport({ scale });
      // Whole pixels, rounded up as pdftoppm does; less a hair, so 200 inches at 150 dpi is 30000, not 30001.
      const width = Math.max(1, Math.ceil(viewport.width - 1e-6));
      const height = Math.max(1, Math.ceil(viewport.height - 1e-6));
      if (width * height > limits.pagePixels)
        throw new PdfInputError(
          'too_large',
          'dpi',
          `page ${index + 1} would be ${width} x ${height} pixels; a page may have at most ${limits.pagePixels.toLocaleString('en')} (lower dpi or width)`,
        );
      total += width * height;
      plans.push({ page, number: index + 1, viewport, width, height });
    }
    if (total > limits.totalPixels)
      throw new PdfInputError(
        'too_large',
        'pages',
        `the images would have ${total.toLocaleString('en')} pixels together; one call may draw at most ${limits.totalPixels.toLocaleString('en')} (fewer pages, lower dpi or width)`,
      );
    const images: RasterImage[] = [];
    for (const plan of plans) {
      if (performance.now() - started > limits.timeoutMs) throw new PdfToolTimeoutError('pdf.js', limits.timeoutMs);
      const canvas = createCanvas(plan.width, plan.height);
      const context = canvas.getContext('2d');
      // Paper is white: a PDF page has no background of its own, and JPEG has no transparency.
      context.fillStyle = '#fff';
      context.fillRect(0, 0, plan.width, plan.height);
      await plan.page.render({ canvas: canvas as never, canvasContext: context as never, viewport: plan.viewport }).promise;
      const bytes = request.format === 'png' ? await canvas.encode('png') : await canvas.encode(request.format, request.quality ?? 85);
      // Copied into memory of our own: the encoder's buffer is native memory a thread cannot hand over.
      images.push({ page: plan.number, width: plan.width, height: plan.height, bytes: new Uint8Array(bytes) });
      plan.page.cleanup();
    }
    return images;
  } finally {
    await document.destroy();
  }
}

/** The Content-Type of a format. */
export function imageMime(format: ImageFormat): string {
  return MIME[format];
}
