// The bench's measuring cells, shared by bench/run.ts (the main table) and bench/engines.ts (the
// default-options rows per Chromium build): a run of renders on N workers for a few seconds,
// against the service over HTTP or against a warm puppeteer page (the engine limit).

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { launchFlags, needsNoSandbox } from '../server/src/render/launch-flags.ts';
import { DEFAULT_PDF_OPTIONS } from '../server/src/render/pdf-options.ts';
import { toPrintOptions } from './print-options.ts';
import type { Workload } from './workloads.ts';
import type { ServiceProcess } from './service-process.ts';
import { processCpuMs, processTreeCpuMs } from './proc.ts';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PRINT = toPrintOptions({ ...DEFAULT_PDF_OPTIONS });
// The engine limit loads with setContent's 'load'; the service is asked for the same unless told otherwise.
export const SERVICE_OPTIONS = { wait_until: 'load' };

export interface Cell {
  workload: string;
  mode: 'service' | 'limit' | 'naive';
  concurrency: number;
  renders: number;
  perSecond: number;
  p50: number;
  p95: number;
  cpuMsPerRender?: number;
  /** Of cpuMsPerRender, the part spent in the service's own (Node) process; the rest is Chromium's. */
  nodeCpuMsPerRender?: number;
}

export type RenderOnce = (worker: number) => Promise<void>;

/**
 * Runs `once` on `concurrency` workers for `seconds` (at least `minimum` renders in all): the
 * latencies in milliseconds, in the order they ended, and the wall time it all took.
 */
export async function timeRenders(once: RenderOnce, concurrency: number, seconds: number, minimum = concurrency * 2) {
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (performance.now() < until || latencies.length < minimum) {
        const t0 = performance.now();
        await once(worker);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, elapsedMs: performance.now() - started };
}

/** Runs `once` on `concurrency` workers for `seconds` (at least `minimum` renders in all). */
export async function measure(once: RenderOnce, concurrency: number, seconds: number, minimum = concurrency * 2) {
  const { latencies, elapsedMs } = await timeRenders(once, concurrency, seconds, minimum);
  latencies.sort((a, b) => a - b);
  const pick = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { renders: latencies.length, perSecond: latencies.length / (elapsedMs / 1000), p50: pick(0.5), p95: pick(0.95) };
}

export async function launch(executablePath: string, isHeadlessShell: boolean): Promise<{ browser: Browser; profile: string }> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-'));
  const browser = await puppeteer.launch({
    executablePath,
    ignoreDefaultArgs: true,
    args: launchFlags({ isHeadlessShell, noSandbox: needsNoSandbox(), userDataDir: profile }),
    pipe: true,
    waitForInitialPage: false,
    headless: isHeadlessShell ? 'shell' : true,
  });
  return { browser, profile };
}

export async function closeBrowser({ browser, profile }: { browser: Browser; profile: string }): Promise<void> {
  await browser.close().catch(() => undefined);
  await rm(profile, { recursive: true, force: true });
}

export async function benchLimit(executable: { path: string; isHeadlessShell: boolean }, workload: Workload, concurrency: number): Promise<Cell> {
  const launched = await launch(executable.path, executable.isHeadlessShell);
  const pages = await Promise.all(Array.from({ length: concurrency }, () => launched.browser.newPage()));
  const once: RenderOnce = async (worker) => {
    const page = pages[worker]!;
    await page.setContent(workload.html, { waitUntil: 'load' });
    await page.pdf(PRINT);
  };
  await once(0); // warm
  const pid = launched.browser.process()!.pid!;
  const cpu0 = processTreeCpuMs(pid);
  const result = await measure(once, concurrency, SECONDS);
  const cpuMsPerRender = (processTreeCpuMs(pid) - cpu0) / result.renders;
  await closeBrowser(launched);
  return { workload: workload.name, mode: 'limit', concurrency, ...result, cpuMsPerRender };
}

export async function benchNaive(executable: { path: string; isHeadlessShell: boolean }, workload: Workload, concurrency: number): Promise<Cell> {
  const once: RenderOnce = async () => {
    const launched = await launch(executable.path, executable.isHeadlessShell);
    try {
      const page = await launched.browser.newPage();
      await page.setContent(workload.html, { waitUntil: 'load' });
      await page.pdf(PRINT);
    } finally {
      await closeBrowser(launched);
    }
  };
  const result = await measure(once, concurrency, SECONDS);
  return { workload: workload.name, mode: 'naive', concurrency, ...result };
}

/** options null: none at all, the service's defaults; suffix names the row. */
export async function benchService(
  service: ServiceProcess,
  workload: Workload,
  concurrency: number,
  options: object | null = SERVICE_OPTIONS,
  suffix = '',
): Promise<Cell> {
  const body = JSON.stringify({ html: workload.html, ...(options ? { options } : {}) });
  const once: RenderOnce = async () => {
    const response = await service.render(body);
    if (response.status !== 200) throw new Error(`service answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  await once(0);
  const cpu0 = processTreeCpuMs(service.pid);
  const node0 = processCpuMs(service.pid);
  const result = await measure(once, concurrency, SECONDS);
  const cpuMsPerRender = (processTreeCpuMs(service.pid) - cpu0) / result.renders;
  const nodeCpuMsPerRender = (processCpuMs(service.pid) - node0) / result.renders;
  return { workload: `${workload.name}${suffix}`, mode: 'service', concurrency, ...result, cpuMsPerRender, nodeCpuMsPerRender };
}
