// The messages between the server and the PDF worker thread (pdf-worker.ts).

import type { AttachedFiles } from './attached-files.ts';
import type { ConformanceReport } from './conformance.ts';
import type { FileToEmbed } from './embed-files.ts';
import type { FinishOptions } from './finish-options.ts';
import type { PdfInspection } from './inspect.ts';
import type { InspectCheck } from './inspect-checks.ts';
import type { RasterImage, RasterRequest } from './rasterize.ts';
import type { PdfLayout } from './pdf-layout.ts';
import type { DestinationPages } from './named-destinations.ts';
import type { MarkerPages, StampPlan } from './stamp-plan.ts';
import type { BlankPages } from './transform/blank-pages.ts';
import type { FieldValue } from './transform/steps.ts';

export interface MergePart {
  pdf: Uint8Array;
  /** A page list ("1-3, 5") to take only those pages. */
  pages?: string;
}

/**
 * A merge whose parts are chapters (a table of contents first): each part's bookmark takes its
 * title from here, and the links of part 0 to `linkPrefix` + N open part N's first page.
 */
export interface Chapters {
  titles: string[];
  linkPrefix: string;
}

export type PdfTask =
  | { kind: 'finish'; pdf: Uint8Array; options: FinishOptions }
  | { kind: 'merge'; sources: MergePart[]; options: FinishOptions & { outline?: boolean; structure?: boolean; chapters?: Chapters } }
  | { kind: 'stamp'; pdf: Uint8Array; overlay: Uint8Array; plan: StampPlan; options: FinishOptions }
  | { kind: 'markers'; pdf: Uint8Array; prefix: string }
  | { kind: 'destinations'; pdf: Uint8Array; names: string[] }
  | { kind: 'layout'; pdf: Uint8Array; field: string }
  | { kind: 'inspect'; pdf: Uint8Array; field: string; original?: Uint8Array; checks?: InspectCheck[] }
  | { kind: 'attached_files'; pdf: Uint8Array; field: string }
  | { kind: 'rasterize'; request: RasterRequest }
  | { kind: 'fill_form'; pdf: Uint8Array; fields: Record<string, FieldValue>; field: string }
  | { kind: 'insert_blank'; pdf: Uint8Array; blank: BlankPages; field: string }
  | { kind: 'scrub'; pdf: Uint8Array }
  | { kind: 'zip'; files: { name: string; data: Uint8Array }[] }
  | { kind: 'pdf_a'; pdf: Uint8Array; level: string }
  | { kind: 'conformance'; pdf: Uint8Array; level: string }
  | { kind: 'embed'; pdf: Uint8Array; files: FileToEmbed[]; xmp?: string };

/** A PDF/A file and the checker's report on it (pdf-a.ts, conformance.ts). */
export interface ArchivalPdf {
  pdf: Uint8Array;
  report: ConformanceReport;
}

/**
 * What a task answers: PDF bytes, where the body's section markers landed (markers), a PDF's pages
 * and sections (layout), the pages named destinations open (destinations), a PDF/A file with its report, or a report, what is in it (inspect), its
 * pages as images (rasterize).
 */
export type PdfTaskResult =
  | Uint8Array
  | MarkerPages
  | DestinationPages
  | PdfLayout
  | ArchivalPdf
  | ConformanceReport
  | PdfInspection
  | RasterImage[]
  | AttachedFiles;

export type PdfTaskReply =
  | { id: number; pdf: PdfTaskResult }
  | { id: number; error: { name: string; message: string; field?: string; index?: number; details?: Record<string, string | number> } };
