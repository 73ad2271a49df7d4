// Chooses a browser's render path at its launch from what works there, not from what its name
// suggests: each virtual-clock mode, best first, is tried with two renders at once (the Chromium
// 156 crash needed two), bounded in time; the first that passes is the path, else the wall clock.
// The source says how a mode is tried (chromium-page-source.ts, the Electron source); this module
// only orders the tries and words the reasons. docs/decisions.md#render-paths-probed-at-launch-and-a-crash-breaker

import type { Protocol } from 'puppeteer-core';
import type { CdpPage } from './cdp-page.ts';
import { type DisabledRenderPath, RENDER_PATH_MODES, type RenderPath, type RenderPathMode } from './render-path.ts';

/**
 * Wall milliseconds one mode's try may take: a mode that hangs counts as failed. A slow machine is
 * not a hang: a fresh full Chromium beside busy processes took 6-10 s for the compositor-frames try
 * (bench/experiments/vt-load.ts), and at 5 s it fell back to the wall clock, so its renders
 * depended on the load from then on. A hang costs this once per launch.
 */
export const PROBE_TIMEOUT_MS = 30_000;

export interface RenderPathProbe {
  /** The crash breaker's reason when the mode is switched off for this build. */
  isSwitchedOff(mode: RenderPathMode): string | undefined;
  /** Two renders at once on pages of this mode; rejects with what failed. */
  tryMode(mode: RenderPathMode): Promise<void>;
  /** Modes this engine cannot offer at all, with why (not tried). */
  lacks?(mode: RenderPathMode): string | undefined;
}

const FOUND: Record<RenderPathMode, string> = {
  'virtual-begin-frame': 'two renders at once on the virtual clock with begin-frame control passed the launch probe',
  'virtual-real-frames': 'two renders at once on the virtual clock with compositor frames passed the launch probe',
  real: 'the wall clock',
};

/** Tries the modes in order; resolves with the path to take and why. */
export async function probeRenderPath(probe: RenderPathProbe, timeoutMs = PROBE_TIMEOUT_MS): Promise<RenderPath> {
  const started = performance.now();
  const disabled: DisabledRenderPath[] = [];
  for (const mode of RENDER_PATH_MODES) {
    if (mode === 'real') break;
    const off = probe.isSwitchedOff(mode);
    if (off) {
      disabled.push({ mode, by: 'breaker', reason: `switched off: ${off}` });
      continue;
    }
    const lacking = probe.lacks?.(mode);
    if (lacking) {
      disabled.push({ mode, by: 'probe', reason: lacking });
      continue;
    }
    const failure = await withinTime(probe.tryMode(mode), timeoutMs).then(
      () => undefined,
      (error: unknown) => firstLine(error),
    );
    if (failure === undefined) return { mode, reason: reasonFor(mode, disabled), disabled, probeMs: Math.round(performance.now() - started) };
    disabled.push({ mode, by: 'probe', reason: `the launch probe failed: ${failure}` });
  }
  return { mode: 'real', reason: reasonFor('real', disabled), disabled, probeMs: Math.round(performance.now() - started) };
}

function reasonFor(mode: RenderPathMode, disabled: DisabledRenderPath[]): string {
  if (disabled.length === 0) return FOUND[mode];
  const why = disabled.map((entry) => `${entry.mode}: ${entry.reason}`).join('; ');
  return `${FOUND[mode]} (${why})`;
}

function withinTime(work: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0]!;
}

/** A timer that asks for a frame, whose callback writes the text the probe reads back. */
const PROBE_HTML =
  "<p id=probe>waiting</p><script>setTimeout(() => requestAnimationFrame(() => { document.getElementById('probe').textContent = 'drawn' }), 50)</script>";

/** One default-option render of PROBE_HTML on the virtual clock: throws unless the frame's change is in the document. */
export async function checkFramesOnVirtualClock(page: CdpPage): Promise<void> {
  await page.load({ kind: 'html', html: PROBE_HTML }, 'networkidle0', 'virtual');
  const { result } = (await page.session.send('Runtime.evaluate', {
    expression: "document.getElementById('probe').textContent",
    returnByValue: true,
  })) as Protocol.Runtime.EvaluateResponse;
  if (result.value !== 'drawn') throw new Error(`a frame asked for by a timer did not run (the page shows "${String(result.value)}")`);
  await page.print({ paperWidth: 2, paperHeight: 2 });
}
