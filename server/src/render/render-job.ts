// What a render is asked to do and what it reports back: the job, a merge body's printed result,
// the outcome for metrics, the hooks, limits and stats. Types only, so services, metrics and the
// renderer's own modules share them without importing the Renderer class.

import type { ImageCapture } from './image-capture.ts';
import type { PendingHeads } from './header-pass.ts';
import type { PdfOptions } from './pdf-options.ts';
import type { RenderPath } from './render-path.ts';
import type { RenderPriority, SlotStats, Tenant } from './render-slots.ts';
import type { RenderSource } from './render-source.ts';
import type { RenderTrace } from './render-trace.ts';

export interface RenderJob {
  source: RenderSource;
  /** Complete and validated (defaults filled in). */
  options: PdfOptions;
  /** Batch items render in the background: they wait as long as needed and yield to interactive renders. */
  priority?: RenderPriority;
  /** Capture an image (POST /v1/image) instead of printing; the result is the image bytes. */
  image?: ImageCapture;
  /** Who the render is for: its slot share and its turn among tenants (render-slots.ts). */
  tenant?: Tenant;
  /** The render's data, for the placeholders of options.header and options.footer. */
  data?: unknown;
  /** Filled in with what the render did (its receipt); without one nothing is recorded. */
  trace?: RenderTrace;
}

/** A body printed for a merge: its header and footer wait for the merged page numbers (decorate). */
export interface PrintedBody {
  pdf: Uint8Array;
  /** Present when the render asked for a header or footer. */
  heads?: PendingHeads;
}

export type RenderOutcome = 'success' | 'timeout' | 'navigation_failed' | 'invalid_input' | 'crashed' | 'page_crashed' | 'busy' | 'blocked' | 'error';

export interface RendererHooks {
  onRender?: (outcome: RenderOutcome, seconds: number) => void;
  /** A render is tried again after its browser ('browser') or page ('page') crashed under it. */
  onRetry?: (scope: 'browser' | 'page') => void;
}

export interface RenderLimits {
  concurrency: number;
  queueSize: number;
  queueTimeoutMs: number;
}

export interface RendererStats extends SlotStats {
  version: string;
  /** The path default renders take and why (render-path.ts). */
  renderPath: RenderPath;
  restarts: number;
  rendersTotal: number;
}
