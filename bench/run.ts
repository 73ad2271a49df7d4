// npm run bench: the service's POST /v1/pdf over loopback beside (a) the engine limit, a warm
// puppeteer-core page per worker rendering the same HTML directly, and (b) the naive approach,
// a browser launched per render; all in one run, on the same Chromium, so ratios are fair.
// Also: the server's memory before and after many renders.
//
// Settings (environment): BENCH_SECONDS per cell (default 5), BENCH_RSS_RENDERS (default 2000),
// BENCH_WORKLOADS (comma list: tiny,invoice,report), BENCH_CONCURRENCY (default 1,2,4),
// BENCH_NAIVE=0, BENCH_EXTRAS=0 and BENCH_DEFAULT_ROWS=0 to leave out the browser-per-render
// column, the extra sections and the default-options rows.

import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { findChromium } from '../server/src/render/chromium-path.ts';
import { launchFlags, needsNoSandbox } from '../server/src/render/launch-flags.ts';
import { DEFAULT_PDF_OPTIONS } from '../server/src/render/pdf-options.ts';
import { toPrintOptions } from './print-options.ts';
import { WORKLOADS, type Workload } from './workloads.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';
import { processCpuMs, processTreeCpuMs, processTreeMemory } from './proc.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RSS_RENDERS = Number(process.env.BENCH_RSS_RENDERS ?? 2000);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,2,4').split(',').map(Number);
const ONLY = process.env.BENCH_WORKLOADS?.split(',');
const NAIVE = process.env.BENCH_NAIVE !== '0';
const EXTRAS = process.env.BENCH_EXTRAS !== '0';
const PRINT = toPrintOptions({ ...DEFAULT_PDF_OPTIONS });
// The engine limit loads with setContent's 'load'; the service is asked for the same, and (rows
// "<workload> default") with no options at all, as a user's first call would (networkidle0 on the
// page's virtual clock), and (rows "<workload> real") with networkidle0 on the wall clock.
const SERVICE_OPTIONS = { wait_until: 'load' };
const DEFAULT_ROWS = process.env.BENCH_DEFAULT_ROWS !== '0';
// Rows beside each load row: no options at all, and networkidle0 on the wall clock.
const EXTRA_ROWS: { suffix: string; options: object | null }[] = [
  { suffix: ' default', options: null },
  { suffix: ' real', options: { wait_clock: 'real' } },
];

interface Cell {
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

type RenderOnce = (worker: number) => Promise<void>;

/** Runs `once` on `concurrency` workers for `seconds` (at least `minimum` renders in all). */
async function measure(once: RenderOnce, concurrency: number, seconds: number, minimum = concurrency * 2) {
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
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pick = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { renders: latencies.length, perSecond: latencies.length / elapsed, p50: pick(0.5), p95: pick(0.95) };
}

async function launch(executablePath: string, isHeadlessShell: boolean): Promise<{ browser: Browser; profile: string }> {
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

async function closeBrowser({ browser, profile }: { browser: Browser; profile: string }): Promise<void> {
  await browser.close().catch(() => undefined);
  await rm(profile, { recursive: true, force: true });
}

async function benchLimit(executable: { path: string; isHeadlessShell: boolean }, workload: Workload, concurrency: number): Promise<Cell> {
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

async function benchNaive(executable: { path: string; isHeadlessShell: boolean }, workload: Workload, concurrency: number): Promise<Cell> {
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
async function benchService(
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

function fmt(value: number | undefined, digits = 1): string {
  return value === undefined ? '' : value.toFixed(digits);
}

function table(cells: Cell[]): string {
  const lines = [
    '| workload | c | service r/s | limit r/s | naive r/s | service/limit | service/naive | service p50 / p95 ms | limit p50 / p95 ms | CPU ms/render service (of it Node) / limit |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const keys = [...new Set(cells.map((cell) => `${cell.workload}|${cell.concurrency}`))];
  for (const key of keys) {
    const [workload, c] = key.split('|');
    // Default-options rows compare with the same engine limit as their workload's load row.
    const find = (mode: Cell['mode']) => {
      const name = mode === 'service' ? workload : workload!.split(' ')[0];
      return cells.find((cell) => cell.workload === name && String(cell.concurrency) === c && cell.mode === mode);
    };
    const service = find('service');
    const limit = find('limit');
    const naive = find('naive');
    lines.push(
      `| ${workload} | ${c} | ${fmt(service?.perSecond)} | ${fmt(limit?.perSecond)} | ${fmt(naive?.perSecond)} | ` +
        `${service && limit ? fmt(service.perSecond / limit.perSecond, 2) : ''} | ${service && naive ? fmt(service.perSecond / naive.perSecond, 2) : ''} | ` +
        `${fmt(service?.p50, 0)} / ${fmt(service?.p95, 0)} | ${fmt(limit?.p50, 0)} / ${fmt(limit?.p95, 0)} | ${fmt(service?.cpuMsPerRender, 0)} (${fmt(service?.nodeCpuMsPerRender, 0)}) / ${fmt(limit?.cpuMsPerRender, 0)} |`,
    );
  }
  return lines.join('\n');
}

async function memoryRun(service: ServiceProcess, workload: Workload): Promise<string> {
  const before = processTreeMemory(service.pid);
  const body = JSON.stringify({ html: workload.html, options: SERVICE_OPTIONS });
  let done = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (done < RSS_RENDERS) {
        done++;
        const response = await service.render(body);
        if (response.status !== 200) throw new Error(`service answered ${response.status}`);
        await response.arrayBuffer();
      }
    }),
  );
  const after = processTreeMemory(service.pid);
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  return [
    `| | server RSS (node) MB | browser PSS MB |`,
    `|---|---|---|`,
    `| before | ${mb(before.rootRss)} | ${mb(before.childrenPss)} |`,
    `| after ${done} ${workload.name} renders | ${mb(after.rootRss)} | ${mb(after.childrenPss)} |`,
    `| growth | ${mb(after.rootRss - before.rootRss)} | ${mb(after.childrenPss - before.childrenPss)} |`,
  ].join('\n');
}

async function main(): Promise<void> {
  const executable = await findChromium(process.env.CHROME_PATH ?? '');
  const workloads = WORKLOADS.filter((workload) => !ONLY || ONLY.includes(workload.name));
  const service = await startServiceProcess({ chromePath: executable.path });
  const cells: Cell[] = [];
  try {
    console.log(`# bench ${new Date().toISOString().slice(0, 10)}  ${service.browserVersion}  ${os.cpus().length} cores  ${SECONDS}s per cell\n`);
    for (const workload of workloads) {
      for (const concurrency of CONCURRENCY) {
        cells.push(await benchService(service, workload, concurrency));
        cells.push(await benchLimit(executable, workload, concurrency));
        // The naive approach is only worth one column: it is slow on every workload.
        if (NAIVE && workload.name !== 'report') cells.push(await benchNaive(executable, workload, concurrency));
        if (DEFAULT_ROWS) for (const row of EXTRA_ROWS) cells.push(await benchService(service, workload, concurrency, row.options, row.suffix));
        const last = cells
          .slice(-5)
          .map((cell) => `${cell.mode} ${cell.perSecond.toFixed(1)}/s`)
          .join(', ');
        console.error(`  ${workload.name} c=${concurrency}: ${last}`);
      }
    }
    const renders = table(cells);
    console.log(renders);
    console.log('');
    const memory = RSS_RENDERS > 0 ? await memoryRun(service, WORKLOADS.find((w) => w.name === 'invoice')!) : '';
    console.log(memory);
    const extra = !EXTRAS
      ? ''
      : await import('./extras.ts').then((module) => module.runExtras(service)).catch((error: unknown) => `extras failed: ${(error as Error).message}`);
    if (extra) console.log(`\n${extra}`);
    await mkdir(path.join('bench', 'results'), { recursive: true });
    await writeFile(
      path.join('bench', 'results', 'latest.md'),
      `# ${new Date().toISOString()} ${service.browserVersion}\n\n${renders}\n\n${memory}\n\n${extra ?? ''}\n`,
    );
  } finally {
    await service.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
