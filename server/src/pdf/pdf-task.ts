// The messages between the server and the PDF worker thread (pdf-worker.ts).

import type { FinishOptions } from './finish-options.ts';

export interface MergePart {
  pdf: Uint8Array;
  /** A page list ("1-3, 5") to take only those pages. */
  pages?: string;
}

export type PdfTask =
  | { kind: 'finish'; pdf: Uint8Array; options: FinishOptions }
  | { kind: 'merge'; sources: MergePart[]; options: FinishOptions & { outline?: boolean } };
