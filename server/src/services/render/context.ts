// What a render is given beyond its request (RenderService.render's context) and what a merge or
// an image is charged as (RenderService.produce): kept apart so render.ts stays one story.

import type { RenderPriority } from '../../render/render-slots.ts';
import type { DocumentSource } from '../../stores/document-record.ts';
import type { StoragePlan } from '../accounts/documents.ts';
import type { OutputOptions } from '../output/steps.ts';
import type { ReserveTurn } from './reserve-turns.ts';

/** How a render runs beyond its request: batch items render in the background and are always stored. */
export interface RenderContext {
  priority?: RenderPriority;
  /** A batch item: stored whatever `store` says, under this document id, as source batch; its charge carries this tag. */
  batchItem?: { batchId: string; index: number; documentId: string; chargeTag: string };
  /** Renders that take the allowance in a fixed order (an in-call batch's items): see ReserveTurn. */
  reserveTurn?: ReserveTurn;
  /** X-Request-Id of the call, for the receipt. */
  requestId?: string;
}

/** What a merge or an image is charged and kept as (RenderService.produce). */
export type ProduceCharge = ChargeTerms & Keeping;

/**
 * Whether the output is kept, and then what made it (the stored record's source): a caller that
 * may keep its output must say which it is; one that never keeps gives `storage: undefined`.
 */
type Keeping = { storage: StoragePlan | undefined; source: DocumentSource } | { storage: undefined; source?: undefined };

/** What a produced output's maker answers: the bytes, with their page count when it knows it (the stored record shows it). */
export type Made = Uint8Array | { pdf: Uint8Array; pages: number };

interface ChargeTerms {
  /** Documents of the allowance it costs (at least one). */
  documents: number;
  filename?: string;
  /** The final steps' options (PDF/A, attachments, signing) and where they sit in the request. */
  output?: { options: OutputOptions | undefined; field: string };
  /** A batch item's transform: stored under its id with its charge tag, reserving in its turn (as render's context). */
  batchItem?: RenderContext['batchItem'];
  reserveTurn?: ReserveTurn;
}
