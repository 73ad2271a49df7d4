// Runs PDF post-processing (finish.ts, merge.ts) on worker threads (worker-pool.ts): parsing and
// re-writing a PDF takes tens to hundreds of milliseconds (AES-256 key derivation alone is ~40 ms),
// which must not stall the server's event loop.

import type { InspectCheck } from './inspect-checks.ts';
import { WorkerPool, type ErrorShape } from '../worker-pool.ts';
import { needsFinishing, type FinishOptions } from './finish-options.ts';
import { MergeSourceError } from './merge-errors.ts';
import { countPages } from './page-count.ts';
import type { PdfInspection } from './inspect.ts';
import { FinishInputError, PdfInputError, PdfStepError, PdfToolTimeoutError, type PdfInputProblem } from './pdf-errors.ts';
import type { RasterImage, RasterRequest } from './rasterize.ts';
import type { AttachedFiles } from './attached-files.ts';
import type { ConformanceReport } from './conformance.ts';
import type { FileToEmbed } from './embed-files.ts';
import type { ArchivalPdf, Chapters, MergePart, PdfTask, PdfTaskResult } from './pdf-task.ts';
import type { PdfLayout } from './pdf-layout.ts';
import type { DestinationPages } from './named-destinations.ts';
import type { MarkerPages, StampPlan } from './stamp-plan.ts';

/** The printed PDF with metadata, watermark and encryption applied; the bytes as they are when none is asked. */
export async function finishPdf(pdf: Uint8Array, options: FinishOptions): Promise<Uint8Array> {
  if (!needsFinishing(options)) return pdf;
  const { metadata, watermark, encrypt } = options;
  return pool.run({ kind: 'finish', pdf, options: { metadata, watermark, encrypt } }) as Promise<Uint8Array>;
}

/** The body with its printed headers and footers drawn on (stamp.ts), then finished with the options. */
export function stampInWorker(pdf: Uint8Array, overlay: Uint8Array, plan: StampPlan, options: FinishOptions): Promise<Uint8Array> {
  const { metadata, watermark, encrypt } = options;
  return pool.run({ kind: 'stamp', pdf, overlay, plan, options: { metadata, watermark, encrypt } }) as Promise<Uint8Array>;
}

/** The page count of a printed body and the page each of its section markers landed on (stamp.ts). */
export function findMarkersInWorker(pdf: Uint8Array, prefix: string): Promise<MarkerPages> {
  return pool.run({ kind: 'markers', pdf, prefix }) as Promise<MarkerPages>;
}

/** Per name, the 0-based page its named destination opens, -1 for none (named-destinations.ts). */
export async function pagesOfDestinationsInWorker(pdf: Uint8Array, names: string[]): Promise<number[]> {
  return ((await pool.run({ kind: 'destinations', pdf, names })) as DestinationPages).pages;
}

/**
 * A PDF's page count: the cheap read of its page tree root (page-count.ts), else pdf-lib's count on
 * the worker (a file another writer laid out, or pdf-lib with object streams). Throws for a file
 * pdf-lib cannot read (an encrypted one).
 */
export async function pageCountOf(pdf: Uint8Array): Promise<number> {
  return countPages(pdf) ?? (await findMarkersInWorker(pdf, NO_MARKERS)).pageCount;
}

/** A marker prefix no link has: findMarkers then only counts the pages. */
const NO_MARKERS = 'https://none.quire.invalid/';

/** The pages, title and sections of a PDF we did not lay out (pdf-layout.ts); a bad file is a FinishInputError naming `field`. */
export function readLayoutInWorker(pdf: Uint8Array, field: string): Promise<PdfLayout> {
  return pool.run({ kind: 'layout', pdf, field }) as Promise<PdfLayout>;
}

/** The parts' pages in order as one PDF, finished with the options; throws MergeSourceError naming a bad part. */
export function mergeInWorker(
  sources: MergePart[],
  options: FinishOptions & { outline?: boolean; structure?: boolean; chapters?: Chapters },
): Promise<Uint8Array> {
  return pool.run({ kind: 'merge', sources, options }) as Promise<Uint8Array>;
}

/** The PDF with the files attached as associated files and the XMP descriptions merged in (embed-files.ts). */
export function embedInWorker(pdf: Uint8Array, files: FileToEmbed[], xmp?: string): Promise<Uint8Array> {
  return pool.run({ kind: 'embed', pdf, files, xmp }) as Promise<Uint8Array>;
}

/** What is inside a PDF someone sent, opened by readPdfInput (inspect.ts); `original`: the bytes as sent, when encrypted. */
export function inspectInWorker(pdf: Uint8Array, field: string, original?: Uint8Array, checks?: InspectCheck[]): Promise<PdfInspection> {
  return pool.run({ kind: 'inspect', pdf, field, original, checks }) as Promise<PdfInspection>;
}

/** The files attached to a PDF readPdfInput opened, with the bytes of those that can be XML (attached-files.ts). */
export function attachedFilesInWorker(pdf: Uint8Array, field: string): Promise<AttachedFiles> {
  return pool.run({ kind: 'attached_files', pdf, field }) as Promise<AttachedFiles>;
}

/** A PDF's pages as images (rasterize.ts), refused before drawing when past the request's limits. */
export function rasterizeInWorker(request: RasterRequest): Promise<RasterImage[]> {
  return pool.run({ kind: 'rasterize', request }) as Promise<RasterImage[]>;
}

/** A PDF transform step pdf-lib carries out (fill_form, insert_blank, scrub); throws PdfStepError naming the step. */
export function transformInWorker(task: Extract<PdfTask, { kind: 'fill_form' | 'insert_blank' | 'scrub' }>): Promise<Uint8Array> {
  return pool.run(task) as Promise<Uint8Array>;
}

/** The files as one zip (stored, not deflated: PDFs and images are compressed already); off the event loop. */
export function zipInWorker(files: { name: string; data: Uint8Array }[]): Promise<Uint8Array> {
  return pool.run({ kind: 'zip', files }) as Promise<Uint8Array>;
}

/** The PDF as a PDF/A file of the level, with the conformance checker's report on the result (pdf-a.ts). */
export function archiveInWorker(pdf: Uint8Array, level: string): Promise<ArchivalPdf> {
  return pool.run({ kind: 'pdf_a', pdf, level }) as Promise<ArchivalPdf>;
}

/** The conformance checker's report on a PDF against a PDF/A level (conformance.ts). */
export function checkConformanceInWorker(pdf: Uint8Array, level: string): Promise<ConformanceReport> {
  return pool.run({ kind: 'conformance', pdf, level }) as Promise<ConformanceReport>;
}

/** Two threads, as many as renders run at once by default. */
const pool = new WorkerPool<PdfTask, PdfTaskResult>({
  threads: 2,
  source: new URL('./pdf-worker.ts', import.meta.url),
  // In the desktop bundle: dist/electron/pdf-worker.mjs, built by scripts/build-electron.ts.
  bundled: new URL('./pdf-worker.mjs', import.meta.url),
  runInline: async (task) => (await import('./run-pdf-task.ts')).runPdfTask(task),
  errorFrom,
});

function errorFrom(error: ErrorShape): Error {
  if (error.name === 'FinishInputError') return new FinishInputError(error.field ?? 'options', error.message);
  if (error.name === 'MergeSourceError')
    return new MergeSourceError(error.index ?? 0, error.message, error.details?.reason === 'untagged' ? 'untagged' : undefined);
  const details = error.details ?? {};
  if (error.name === 'PdfInputError') return new PdfInputError(details.problem as PdfInputProblem, error.field ?? 'pdf', error.message);
  if (error.name === 'PdfStepError') return new PdfStepError(error.field ?? 'steps', error.message);
  if (error.name === 'PdfToolTimeoutError') return new PdfToolTimeoutError(String(details.tool), Number(details.timeoutMs));
  return new Error(error.message);
}
