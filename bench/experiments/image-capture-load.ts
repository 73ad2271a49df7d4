// Experiment (issue 40): does a default POST /v1/image capture ({html:'<h1>Hello</h1>'}) ever wait
// for its timeout under load? Renders it N times, PAR at a time, on one renderer of the engine
// (CHROME_PATH; ENGINE_PAGES=electron for the desktop app's page source on the stand-in), each
// within TIMEOUT_MS, checks each PNG's size, and counts the failures and the wall time of the
// capture stage and of the whole render. WAIT_UNTIL=load takes the wall-clock lane instead.
// Run beside a busy loop: CHROME_PATH=/usr/lib/chromium/chromium N=90 PAR=3 npx tsx bench/experiments/image-capture-load.ts
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../server/src/logger.ts';
import { startRenderer } from '../../server/src/render/index.ts';
import { DEFAULT_PDF_OPTIONS } from '../../server/src/render/pdf-options.ts';
import type { ImageCapture } from '../../server/src/render/image-capture.ts';
import { RenderTrace } from '../../server/src/render/render-trace.ts';
import { electronStandIn } from '../../tests/helpers/fake-electron.ts';
import { decodePng } from '../../tests/helpers/image.ts';

const chromePath = process.env.CHROME_PATH ?? '';
const count = Number(process.env.N ?? 40);
const parallel = Number(process.env.PAR ?? 3);
const timeoutMs = Number(process.env.TIMEOUT_MS ?? 30_000);
const electron = process.env.ENGINE_PAGES === 'electron';
const image: ImageCapture = { type: 'png', full_page: false, viewport: { width: 1280, height: 800, device_scale_factor: 1 }, omit_background: false };

const workDir = await mkdtemp(path.join(os.tmpdir(), 'quire-capture-'));
const options = {
  chromePath,
  fontsDir: path.join(workDir, 'fonts'),
  workDir,
  recycleAfter: 0,
  log: createLogger('silent'),
  concurrency: 4,
  queueSize: 100,
  queueTimeoutMs: 120_000,
};
const renderer = await startRenderer(options, electron ? electronStandIn(chromePath || '/usr/lib/chromium/chromium') : undefined);
console.log(`engine ${chromePath || 'npm shell'}${electron ? ' (electron stand-in)' : ''}: ${renderer.stats().renderPath.mode}`);
const failures = new Map<string, number>();
const captureMs: number[] = [];
const totalMs: number[] = [];
let done = 0;
async function worker(): Promise<void> {
  while (done < count) {
    done++;
    const trace = new RenderTrace();
    const started = performance.now();
    try {
      const bytes = await renderer.render({
        source: { kind: 'html', html: '<h1>Hello</h1>' },
        options: { ...DEFAULT_PDF_OPTIONS, timeout_ms: timeoutMs, ...(process.env.WAIT_UNTIL ? { wait_until: process.env.WAIT_UNTIL as 'load' } : {}) },
        image,
        trace,
      });
      const png = decodePng(bytes);
      if (png.width !== image.viewport.width || png.height !== image.viewport.height) throw new Error(`a ${png.width} x ${png.height} PNG`);
      const marks = trace.marks ?? {};
      captureMs.push((marks.printed ?? 0) - (marks.waited ?? 0));
      totalMs.push(performance.now() - started);
      if (process.env.TRACE) console.log(JSON.stringify(marks), Math.round(performance.now() - started));
    } catch (error) {
      const name = (error as Error).message.split('\n')[0]!;
      failures.set(name, (failures.get(name) ?? 0) + 1);
      console.log(`${new Date().toISOString()} after ${Math.round(performance.now() - started)} ms: ${name} marks ${JSON.stringify(trace.marks)}`);
    }
  }
}
try {
  await Promise.all(Array.from({ length: parallel }, worker));
  const at = (q: number, list = captureMs) => {
    const sorted = [...list].sort((a, b) => a - b);
    return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN);
  };
  console.log(`${count} captures, ${parallel} at a time: ${captureMs.length} ok, failed: ${[...failures].map(([m, n]) => `${n}x ${m}`).join('; ') || 'none'}`);
  console.log(`capture stage ms: p50 ${at(0.5)} p90 ${at(0.9)} max ${at(1)}; whole render ms: p50 ${at(0.5, totalMs)} p90 ${at(0.9, totalMs)}`);
} finally {
  await renderer.close(5000);
  await rm(workDir, { recursive: true, force: true });
}
