// Experiment (issue 34): can the virtual clock on an engine without begin-frame control run past
// the network-idle window under load? Renders the engine-parity timers page (timers at 100..700 ms;
// networkidle0 on the virtual clock must stop at "after 450") with default options, on freshly
// started browsers (the third render after the launch probe and warm-up, as the failing CI run did)
// and on a warm one, while child processes spin on every core. Prints each distinct text with its
// count, and the receipt warnings seen. Bounded: BUDGET_S wall seconds per engine and mode.
// Run: CHROME_PATH=/usr/lib/chromium/chromium FRESH=20 WARM=100 SPIN=4 npx tsx bench/experiments/vt-load.ts
// ENGINE_PAGES=electron renders through the desktop app's page source on the stand-in.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../server/src/logger.ts';
import { startRenderer, type Renderer } from '../../server/src/render/index.ts';
import { DEFAULT_PDF_OPTIONS } from '../../server/src/render/pdf-options.ts';
import { RenderTrace } from '../../server/src/render/render-trace.ts';
import { VirtualClock } from '../../server/src/render/virtual-clock.ts';
import { inspectPdf } from '../../tests/helpers/pdf.ts';
import { electronStandIn } from '../../tests/helpers/fake-electron.ts';
import { invoiceHtml } from '../workloads.ts';

export const TIMERS =
  '<p id="t">start</p><script>for (const ms of [100, 250, 400, 450, 550, 700]) setTimeout(() => { document.getElementById("t").textContent = "after " + ms }, ms)</script>';
const TEXT = '<h1>Invoice 42</h1><p>Plain text, no scripts.</p><p style="break-before: page">Second page</p>';

const chromePath = process.env.CHROME_PATH ?? '';
const fresh = Number(process.env.FRESH ?? 20);
const warmCount = Number(process.env.WARM ?? 100);
const spinners = Number(process.env.SPIN ?? os.cpus().length * 2);
const budgetMs = Number(process.env.BUDGET_S ?? 900) * 1000;
const electron = process.env.ENGINE_PAGES === 'electron';

/** Busy loops in child processes: the load the failing CI run had from the other lanes. */
function spin(count: number): ChildProcess[] {
  return Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore', detached: true }));
}

async function start(workDir: string): Promise<Renderer> {
  const log = createLogger('silent');
  const own = await mkdtemp(path.join(workDir, 'r-'));
  const options = { chromePath, fontsDir: path.join(own, 'fonts'), workDir: own, recycleAfter: 0, log, concurrency: 4, queueSize: 100, queueTimeoutMs: 60_000 };
  return startRenderer(options, electron ? electronStandIn(chromePath || '/usr/lib/chromium/chromium') : undefined);
}

const seen = new Map<string, number>();
const show = (counts: Map<string, number>) => [...counts].map(([text, n]) => `"${text}" x${n}`).join(', ');
const warnings = new Map<string, number>();
const failures = new Map<string, number>();
async function renderTimers(renderer: Renderer): Promise<void> {
  const trace = new RenderTrace();
  granted.length = 0;
  let pdf: Uint8Array;
  try {
    pdf = await renderer.render({ source: { kind: 'html', html: TIMERS }, options: { ...DEFAULT_PDF_OPTIONS }, trace });
  } catch (error) {
    // A failed render (504 render_timeout on a machine this loaded) is not a different page: counted apart.
    const name = `error: ${(error as Error).message.split('\n')[0]}`;
    failures.set(name, (failures.get(name) ?? 0) + 1);
    console.log(`${new Date().toISOString()} ${name}`);
    return;
  }
  const text = (await inspectPdf(pdf)).pages[0]!.text.trim();
  seen.set(text, (seen.get(text) ?? 0) + 1);
  if (text !== 'after 450' || process.env.TRACE) {
    console.log(
      `${new Date().toISOString()} ${text} on ${JSON.stringify(trace.renderPath)} warnings ${JSON.stringify(trace.warnings)}; clock: ${granted.join(' | ')}`,
    );
  }
  for (const warning of trace.warnings) warnings.set(warning, (warnings.get(warning) ?? 0) + 1);
}

const hogs = spin(spinners);
const stopHogs = () => {
  for (const hog of hogs.splice(0)) if (hog.pid) process.kill(-hog.pid, 'SIGKILL');
};

// Where the virtual time goes: every budget the clock grants, per render (TRACE=1 prints them).
const granted: string[] = [];
const proto = VirtualClock.prototype as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
for (const name of ['runBudget', 'stepWhile', 'waitForNetworkIdle', 'hold']) {
  const original = proto[name]!;
  proto[name] = async function (this: VirtualClock, ...args: unknown[]) {
    const before = await this.now();
    try {
      return await original.apply(this, args);
    } finally {
      if (name !== 'runBudget' || Number(args[0]) > 2) granted.push(`${name}(${typeof args[0] === 'number' ? args[0] : ''}) ${before}->${await this.now()}`);
    }
  };
}
process.on('exit', stopHogs);
const workDir = await mkdtemp(path.join(os.tmpdir(), 'quire-vt-load-'));
const began = performance.now();
let path0 = '';
const paths = new Map<string, number>();
try {
  let freshDone = 0;
  // FRESH_AT_ONCE fresh browsers start side by side (more load, more launches in the time).
  const freshWorker = async () => {
    while (freshDone < fresh && performance.now() - began < budgetMs) {
      freshDone++;
      if (freshDone % 10 === 0) console.log(`${new Date().toISOString()} fresh ${freshDone}: ${show(seen)}`);
      const renderer = await start(workDir);
      const rp = renderer.stats().renderPath;
      path0 = rp.mode;
      paths.set(rp.mode, (paths.get(rp.mode) ?? 0) + 1);
      if (process.env.TRACE) console.log('path', rp.mode, rp.probeMs, rp.reason);
      // The failing run: text, invoice, then the timers page, one at a time on a fresh browser.
      for (const html of [TEXT, invoiceHtml()])
        await renderer.render({ source: { kind: 'html', html }, options: { ...DEFAULT_PDF_OPTIONS } }).catch(() => undefined);
      await renderTimers(renderer);
      await renderer.close(5000);
    }
  };
  await Promise.all(Array.from({ length: Number(process.env.FRESH_AT_ONCE ?? 1) }, freshWorker));
  const freshSeen = new Map(seen);
  seen.clear();
  const renderer = await start(workDir);
  let warmDone = 0;
  for (; warmDone < warmCount && performance.now() - began < budgetMs; warmDone++) {
    if (warmDone % 25 === 0) console.log(`${new Date().toISOString()} warm ${warmDone}: ${show(seen)}`);
    await renderTimers(renderer);
  }
  await renderer.close(5000);
  console.log(`engine ${chromePath || 'npm shell'}${electron ? ' (electron stand-in)' : ''}, path ${path0}, ${spinners} spinners`);
  console.log(`  fresh browsers: ${freshDone}: ${show(freshSeen)} (render paths chosen: ${show(paths)})`);
  console.log(`  warm browser:   ${warmDone}: ${show(seen)}`);
  console.log(`  failed renders (not printed): ${show(failures) || 'none'}`);
  console.log(`  warnings: ${show(warnings) || 'none'}; ${((performance.now() - began) / 1000).toFixed(0)} s`);
} finally {
  stopHogs();
  await rm(workDir, { recursive: true, force: true });
}
