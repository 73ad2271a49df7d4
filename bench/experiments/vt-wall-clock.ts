// Experiment (issue 39 item 1): how far a default render's page clock (Date.now() when its script
// runs) stands from the wall clock at the render's start, on one warm lane: after the lane sat idle
// (GAP_MS), and over renders sent back to back (each spends 500 virtual ms, fewer wall ms).
// Prints the page clock's lead over the wall clock for each render, in ms (negative: behind).
// Run: CHROME_PATH=/usr/lib/chromium/chromium ENGINE_PAGES=electron ROUNDS=10 GAP_MS=3000 npx tsx bench/experiments/vt-wall-clock.ts
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../server/src/logger.ts';
import { startRenderer } from '../../server/src/render/index.ts';
import { DEFAULT_PDF_OPTIONS } from '../../server/src/render/pdf-options.ts';
import { electronStandIn } from '../../tests/helpers/fake-electron.ts';
import { inspectPdf } from '../../tests/helpers/pdf.ts';

const PAGE = '<p>t=<script>document.write(String(Date.now()))</script></p>';

const chromePath = process.env.CHROME_PATH ?? '';
const rounds = Number(process.env.ROUNDS ?? 10);
const gapMs = Number(process.env.GAP_MS ?? 3000);
const electron = process.env.ENGINE_PAGES === 'electron';
const workDir = await mkdtemp(path.join(os.tmpdir(), 'quire-vt-wall-'));
const log = createLogger('silent');
const options = { chromePath, fontsDir: path.join(workDir, 'fonts'), workDir, recycleAfter: 0, log, concurrency: 1, queueSize: 10, queueTimeoutMs: 60_000 };
const renderer = await startRenderer(options, electron ? electronStandIn(chromePath || '/usr/lib/chromium/chromium') : undefined);

async function lead(): Promise<{ lead: number; wallMs: number }> {
  const started = Date.now();
  const pdf = await renderer.render({ source: { kind: 'html', html: PAGE }, options: { ...DEFAULT_PDF_OPTIONS } });
  const text = (await inspectPdf(pdf)).pages[0]!.text;
  return { lead: Number(/t=(\d+)/.exec(text)?.[1]) - started, wallMs: Date.now() - started };
}

try {
  console.log(`path ${renderer.stats().renderPath.mode}`);
  await lead();
  await new Promise((resolve) => setTimeout(resolve, gapMs));
  const afterGap = await lead();
  const burst: { lead: number; wallMs: number }[] = [];
  for (let round = 0; round < rounds; round++) burst.push(await lead());
  console.log(`${electron ? 'electron stand-in on ' : ''}${chromePath || 'npm shell'}: after ${gapMs} ms idle: lead ${afterGap.lead} ms`);
  console.log(`back to back: leads ${burst.map((r) => r.lead).join(', ')} ms; wall ms per render ${burst.map((r) => r.wallMs).join(', ')}`);
} finally {
  await renderer.close(5000);
  await rm(workDir, { recursive: true, force: true });
}
