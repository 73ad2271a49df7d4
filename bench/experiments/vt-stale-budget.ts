// Experiment (issue 34, the Electron stand-in's flake): does a render that waited for a selector
// (wait_for, virtual-clock.ts runUntil) leave a clock budget behind that cuts the next default
// render's network-idle window short on the same lane? Chromium fires a budget's expiry when the
// page's virtual time reaches it, even after a newer policy replaced it, and pauses the clock then.
// Renders, on one warm renderer, the wait_for page then the timers page, ROUNDS times; prints each
// distinct timers text with its count and the receipt warnings.
// Run: CHROME_PATH=/usr/lib/chromium/chromium ENGINE_PAGES=electron ROUNDS=20 npx tsx bench/experiments/vt-stale-budget.ts
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../server/src/logger.ts';
import { startRenderer } from '../../server/src/render/index.ts';
import { DEFAULT_PDF_OPTIONS } from '../../server/src/render/pdf-options.ts';
import { RenderTrace } from '../../server/src/render/render-trace.ts';
import { electronStandIn } from '../../tests/helpers/fake-electron.ts';
import { inspectPdf } from '../../tests/helpers/pdf.ts';

const TIMERS =
  '<p id="t">start</p><script>for (const ms of [100, 250, 400, 450, 550, 700]) setTimeout(() => { document.getElementById("t").textContent = "after " + ms }, ms)</script>';
const SELECTED =
  '<p id="t">start</p><script>setTimeout(() => { document.getElementById("t").textContent = "late timer" }, 2000); setTimeout(() => document.body.insertAdjacentHTML("beforeend", "<p id=shown>shown</p>"), 1500)</script>';

const chromePath = process.env.CHROME_PATH ?? '';
const rounds = Number(process.env.ROUNDS ?? 20);
const electron = process.env.ENGINE_PAGES === 'electron';
const workDir = await mkdtemp(path.join(os.tmpdir(), 'quire-vt-stale-'));
const log = createLogger('silent');
const options = { chromePath, fontsDir: path.join(workDir, 'fonts'), workDir, recycleAfter: 0, log, concurrency: 1, queueSize: 10, queueTimeoutMs: 60_000 };
const renderer = await startRenderer(options, electron ? electronStandIn(chromePath || '/usr/lib/chromium/chromium') : undefined);
const seen = new Map<string, number>();
try {
  console.log(`path ${renderer.stats().renderPath.mode}`);
  for (let round = 0; round < rounds; round++) {
    if (!process.env.NO_WAIT_FOR) await renderer.render({ source: { kind: 'html', html: SELECTED }, options: { ...DEFAULT_PDF_OPTIONS, wait_for: '#shown' } });
    const trace = new RenderTrace();
    const pdf = await renderer.render({ source: { kind: 'html', html: TIMERS }, options: { ...DEFAULT_PDF_OPTIONS }, trace });
    const text = (await inspectPdf(pdf)).pages[0]!.text.trim();
    const key = `${text}${trace.warnings.length > 0 ? ` (warned: ${trace.warnings.join('; ')})` : ''}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  console.log(`${electron ? 'electron stand-in on ' : ''}${chromePath || 'npm shell'}: ${[...seen].map(([text, n]) => `"${text}" x${n}`).join(', ')}`);
} finally {
  await renderer.close(5000);
  await rm(workDir, { recursive: true, force: true });
}
