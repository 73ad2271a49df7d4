// The render path a PageSource's default renders (networkidle0 on the virtual clock) take on the
// engine it has, and why: chosen from what a probe at each browser launch found to work, and
// narrowed by the crash breaker (render-path-breaker.ts) when a mode keeps crashing a browser build.
// Plain data shared by the sources, Renderer, /health and the metrics; knows no Chromium.

/**
 * - `virtual-begin-frame`: the page's virtual clock, frames drawn on request
 *   (HeadlessExperimental.beginFrame, one at a time per browser): the headless shell.
 * - `virtual-real-frames`: the virtual clock, frames from the compositor, awaited while the clock
 *   runs in small steps: engines without begin-frame control (full Chromium, Electron).
 * - `real`: the wall clock (networkidle0 waits its 500 ms for real).
 * docs/decisions.md#render-paths-probed-at-launch-and-a-crash-breaker
 */
export type RenderPathMode = 'virtual-begin-frame' | 'virtual-real-frames' | 'real';

/** Best first: a source takes the first mode its engine passed the probe for and the breaker has not switched off. */
export const RENDER_PATH_MODES: readonly RenderPathMode[] = ['virtual-begin-frame', 'virtual-real-frames', 'real'];

export interface DisabledRenderPath {
  mode: RenderPathMode;
  /** Who switched it off: the launch probe (the engine lacks it or it failed) or the crash breaker. */
  by: 'probe' | 'breaker';
  /** What was found: the probe's error, or the breaker's crash count. */
  reason: string;
}

export interface RenderPath {
  /** The path default renders take now. */
  mode: RenderPathMode;
  /** Why this path: a sentence for the operator (start-up log, /health). */
  reason: string;
  /** Better modes this engine build cannot or may not use, each with why. */
  disabled: DisabledRenderPath[];
  /** Wall milliseconds the last launch probe took (0: no probe ran). */
  probeMs: number;
}

/** Whether default renders on this path run on the page's virtual clock. */
export function isVirtual(mode: RenderPathMode): boolean {
  return mode !== 'real';
}

/**
 * Whether an image may be taken on this path's virtual clock. Page.captureScreenshot answers once
 * the page presented a fresh frame; with begin frames the clock draws it on request (virtual-clock.ts
 * drawWhile), but a page that awaits the compositor's frames may never present one while its clock
 * is held or stepped, so images there take the wall clock (docs/decisions.md#images-on-engines-without-begin-frame-control-take-the-wall-clock-issue-40).
 */
export function capturesOnVirtualClock(mode: RenderPathMode): boolean {
  return mode === 'virtual-begin-frame';
}

/** What a page is leased for: printing a PDF, or capturing an image (POST /v1/image). */
export type PageUse = 'print' | 'capture';

/** The mode a lease asking for the virtual clock gets on a path: its own, or the wall clock for an image it cannot capture. */
export function leaseMode(mode: RenderPathMode, use: PageUse): RenderPathMode {
  return use === 'capture' && !capturesOnVirtualClock(mode) ? 'real' : mode;
}

/** Before any probe ran: the wall clock, which every engine supports. */
export const UNPROBED_PATH: RenderPath = { mode: 'real', reason: 'not probed yet', disabled: [], probeMs: 0 };
