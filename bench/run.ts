// npm run bench: the service's POST /v1/pdf over loopback beside (a) the engine limit, a warm
// puppeteer-core page per worker rendering the same HTML directly, and (b) the naive approach,
// a browser launched per render; all in one run, on the same Chromium, so ratios are fair.
// Also: the server's memory before and after many renders.
//
// Settings (environment): BENCH_SECONDS per cell (default 5), BENCH_RSS_RENDERS (default 2000),
// BENCH_WORKLOADS (comma list: tiny,invoice,report), BENCH_CONCURRENCY (default 1,2,4),
// BENCH_NAIVE=0, BENCH_EXTRAS=0, BENCH_DEFAULT_ROWS=0 and BENCH_ENGINES=0 to leave out the
// browser-per-render column, the extra sections, the default-options rows and the default-options
// rows per Chromium build (bench/engines.ts).

import { writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findChromium } from '../server/src/render/chromium-path.ts';
import { WORKLOADS, type Workload } from './workloads.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';
import { processTreeMemory } from './proc.ts';
import { benchLimit, benchNaive, benchService, SECONDS, SERVICE_OPTIONS, type Cell } from './cells.ts';
import { engineRows } from './engines.ts';

const RSS_RENDERS = Number(process.env.BENCH_RSS_RENDERS ?? 2000);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,2,4').split(',').map(Number);
const ONLY = process.env.BENCH_WORKLOADS?.split(',');
const NAIVE = process.env.BENCH_NAIVE !== '0';
const EXTRAS = process.env.BENCH_EXTRAS !== '0';
const ENGINES = process.env.BENCH_ENGINES !== '0';
// The service is asked for 'load' as the engine limit loads, and (rows "<workload> default") with
// no options at all, as a user's first call would (networkidle0 on the page's virtual clock), and
// (rows "<workload> real") with networkidle0 on the wall clock.
const DEFAULT_ROWS = process.env.BENCH_DEFAULT_ROWS !== '0';
// Rows beside each load row: no options at all, and networkidle0 on the wall clock.
const EXTRA_ROWS: { suffix: string; options: object | null }[] = [
  { suffix: ' default', options: null },
  { suffix: ' real', options: { wait_clock: 'real' } },
];

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
    const engines = ENGINES ? await engineRows() : '';
    if (engines) console.log(`\n${engines}`);
    await mkdir(path.join('bench', 'results'), { recursive: true });
    await writeFile(
      path.join('bench', 'results', 'latest.md'),
      `# ${new Date().toISOString()} ${service.browserVersion}\n\n${renders}\n\n${memory}\n\n${extra ?? ''}\n\n${engines}\n`,
    );
  } finally {
    await service.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
