// The crash breaker of render paths: a browser build that keeps crashing while renders of one
// mode are in flight gets that mode switched off, so the source falls back to the next path instead
// of crash-looping (docs/decisions.md#render-paths-probed-at-launch-and-a-crash-breaker). Kept in
// memory per process and per browser version string; knows no Chromium.

import type { RenderPathMode } from './render-path.ts';

/** Browser crashes with a mode's renders in flight that switch the mode off for that build. */
export const CRASHES_TO_SWITCH_OFF = 3;

/** Crashes older than this are forgotten: a crash a day is a bug to report, not a loop. */
export const CRASH_WINDOW_MS = 10 * 60_000;

export class RenderPathBreaker {
  private readonly crashes = new Map<string, number[]>();
  private readonly off = new Map<string, string>();

  constructor(
    private readonly limit = CRASHES_TO_SWITCH_OFF,
    private readonly windowMs = CRASH_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Notes one browser crash with renders of this mode in flight; returns the reason when this crash switched the mode off. */
  noteCrash(version: string, mode: RenderPathMode): string | undefined {
    if (mode === 'real' || this.off.has(keyOf(version, mode))) return undefined;
    const at = this.now();
    const recent = (this.crashes.get(keyOf(version, mode)) ?? []).filter((time) => at - time < this.windowMs);
    recent.push(at);
    this.crashes.set(keyOf(version, mode), recent);
    if (recent.length < this.limit) return undefined;
    const reason = `${recent.length} browser crashes within ${Math.round(this.windowMs / 60_000)} min with ${mode} renders in flight on ${version}`;
    this.off.set(keyOf(version, mode), reason);
    return reason;
  }

  /** Why this mode is switched off for this browser build, or undefined while it is on. */
  reasonOff(version: string, mode: RenderPathMode): string | undefined {
    return this.off.get(keyOf(version, mode));
  }
}

function keyOf(version: string, mode: RenderPathMode): string {
  return `${version}\n${mode}`;
}
