// How a page's virtual clock (virtual-clock.ts) gets its frames, and the one-at-a-time turn that
// begin frames take per browser. Apart from the clock so the page sources can make them.
//
// A page draws no frame by itself while its clock is held, and a running clock jumps ahead faster
// than the compositor's wall-clock frames come (bench/experiments/vt-frames.ts), so
// requestAnimationFrame callbacks, IntersectionObserver and lazy images would never run. The
// lane's target is therefore created with begin-frame control, and the clock draws a frame itself
// (HeadlessExperimental.beginFrame, which works while the clock is held) every FRAME_INTERVAL_MS
// of virtual time and once more before it calls the network idle (bench/experiments/vt-begin-frame.ts).

/**
 * How a virtual clock gets its frames: 'begin-frame' draws them on request, one at a time per
 * browser (turn); 'compositor' awaits the engine's own frames while the clock runs in small steps.
 */
export type FrameSource = { kind: 'begin-frame'; turn: FrameTurn } | { kind: 'compositor' };

/**
 * One begin frame in flight per browser: Chromium 156's GPU process kills itself on overlapping
 * begin frames from two targets ("Got overlapping IssueExternalBeginFrame"), and the browser with it
 * (bench/experiments/vt-crash-156.ts; docs/decisions.md#render-paths-probed-at-launch-and-a-crash-breaker).
 * A frame costs ~1 ms, so the turn costs next to nothing.
 */
export class FrameTurn {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.last.then(work);
    this.last = result.catch(() => undefined);
    return result;
  }
}
