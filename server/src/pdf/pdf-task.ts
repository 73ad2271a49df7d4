// The messages between the server and the PDF worker thread (pdf-worker.ts).

import type { FinishOptions } from './finish-options.ts';
import type { MarkerPages, StampPlan } from './stamp.ts';

export interface MergePart {
  pdf: Uint8Array;
  /** A page list ("1-3, 5") to take only those pages. */
  pages?: string;
}

export type PdfTask =
  | { kind: 'finish'; pdf: Uint8Array; options: FinishOptions }
  | { kind: 'merge'; sources: MergePart[]; options: FinishOptions & { outline?: boolean } }
  | { kind: 'stamp'; pdf: Uint8Array; overlay: Uint8Array; plan: StampPlan; options: FinishOptions }
  | { kind: 'markers'; pdf: Uint8Array; prefix: string };

/** What a task answers: PDF bytes, or (markers) where the body's section markers landed. */
export type PdfTaskResult = Uint8Array | MarkerPages;

export type PdfTaskReply = { id: number; pdf: PdfTaskResult } | { id: number; error: { name: string; message: string; field?: string; index?: number } };
