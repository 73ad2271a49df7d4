// The seam between "a page to render on" and how it is isolated. The renderer asks a PageSource
// for a lease, loads the source into it, prints, and releases it; the source guarantees that
// nothing from one lease (cookies, storage, cache, service workers, globals, timers) is visible
// in the next. The headless server and the desktop app each provide one.

import type { CdpPage, RenderClock } from './cdp-page.ts';
import type { PageUse, RenderPath } from './render-path.ts';
import type { RenderSource } from './render-source.ts';

export interface PageLease {
  readonly page: CdpPage;
  /** The clock the page runs on when it is not the one asked for (a virtual clock asked for where the render path is 'real', or for an image it cannot capture). */
  readonly clock?: RenderClock;
  /**
   * Gives the page back. `reusable: false` when the render failed or timed out part-way, so the
   * source discards the page instead of using it again.
   */
  release(reusable: boolean): Promise<void>;
}

export interface PageSource {
  /**
   * A page ready for one isolated render of this kind of source, on the clock asked for (a page
   * once in virtual time stays in it) where the render path allows it for `use` (render-path.ts
   * leaseMode: an image may get the wall clock). May throw RendererCrashedError.
   */
  acquire(kind: RenderSource['kind'], clock?: RenderClock, use?: PageUse): Promise<PageLease>;
  /**
   * The path default renders take on this engine and why (render-path.ts): clock 'virtual' is
   * honoured unless its mode is 'real'. Probed at each browser launch, narrowed by the crash breaker.
   */
  readonly renderPath: RenderPath;
  /** Launches the engine if needed and probes its render path; called once before the first render (render/index.ts). */
  start?(): Promise<void>;
  /** Version text of the engine, for /health. */
  readonly version: string;
  /** A cheap round trip to the engine: false when it is dead. */
  probe(): Promise<boolean>;
  readonly restarts: number;
  close(): Promise<void>;
}
