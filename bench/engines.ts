// The default-options rows (no options at all: networkidle0 on the render path the build's launch
// probe chose) on every Chromium build found here, each as a ratio to the warm-page limit on that
// same build, so builds compare fairly: the npm headless shell, Debian's chromium-headless-shell,
// Debian's full chromium in new headless mode (docs/testing.md#engines-which-chromium-builds-are-tested).
// Part of `npm run bench` (BENCH_ENGINES=0 leaves it out); alone: `npx tsx bench/engines.ts`.
// Settings: BENCH_SECONDS per cell, BENCH_ENGINE_WORKLOADS (default tiny,invoice),
// BENCH_ENGINE_CONCURRENCY (default 1,4).

import os from 'node:os';
import { findChromium, type ChromiumExecutable } from '../server/src/render/chromium-path.ts';
import { benchLimit, benchService, SECONDS, type Cell } from './cells.ts';
import { startServiceProcess } from './service-process.ts';
import { WORKLOADS } from './workloads.ts';
import { isMain, printAlone } from './alone.ts';

const BUILDS = [
  { name: 'npm headless shell', chromePath: '' },
  { name: 'Debian chromium-headless-shell', chromePath: '/usr/lib/chromium/chromium-headless-shell' },
  { name: 'Debian chromium (full, --headless=new)', chromePath: '/usr/lib/chromium/chromium' },
];
const WORKLOAD_NAMES = (process.env.BENCH_ENGINE_WORKLOADS ?? 'tiny,invoice').split(',');
const CONCURRENCY = (process.env.BENCH_ENGINE_CONCURRENCY ?? '1,4').split(',').map(Number);

interface Found {
  name: string;
  executable: ChromiumExecutable;
}

/** The builds installed here, each once (the default lookup may land on a Debian one). */
async function foundBuilds(): Promise<Found[]> {
  const found: Found[] = [];
  for (const build of BUILDS) {
    const executable = await findChromium(build.chromePath).catch(() => undefined);
    if (!executable || (build.chromePath === '' && executable.source !== '@sparticuz/chromium')) continue;
    if (!found.some((other) => other.executable.path === executable.path)) found.push({ name: build.name, executable });
  }
  return found;
}

/** The markdown table of default-options rows per build, with the load average before and after. */
export async function engineRows(): Promise<string> {
  const load = () =>
    os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
  const lines = [
    `## Default options per Chromium build (${SECONDS}s per cell, load average ${load()} at the start)`,
    '',
    '| build | render path | workload | c | default r/s | limit r/s | default/limit | default p50 / p95 ms | limit p50 ms | CPU ms/render default / limit |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { name, executable } of await foundBuilds()) {
    const service = await startServiceProcess({ chromePath: executable.path });
    try {
      const health = (await (await fetch(`${service.url}/health`)).json()) as { renderer: { render_path?: { mode: string } } };
      const path = `${health.renderer.render_path?.mode ?? '?'}`;
      for (const workload of WORKLOADS.filter((candidate) => WORKLOAD_NAMES.includes(candidate.name))) {
        for (const concurrency of CONCURRENCY) {
          const row = `| ${name} ${service.browserVersion} | ${path} | ${workload.name} | ${concurrency} |`;
          let cells: [Cell, Cell];
          try {
            cells = [await benchService(service, workload, concurrency, null, ' default'), await benchLimit(executable, workload, concurrency)];
          } catch (error) {
            lines.push(`${row} failed: ${(error as Error).message.split('\n')[0]} | | | | | |`);
            continue;
          }
          const [measured, limit] = cells;
          lines.push(
            `${row} ${measured.perSecond.toFixed(1)} | ${limit.perSecond.toFixed(1)} | ${(measured.perSecond / limit.perSecond).toFixed(2)} | ` +
              `${measured.p50.toFixed(0)} / ${measured.p95.toFixed(0)} | ${limit.p50.toFixed(0)} | ${measured.cpuMsPerRender?.toFixed(0)} / ${limit.cpuMsPerRender?.toFixed(0)} |`,
          );
          console.error(`  ${name} ${workload.name} c=${concurrency}: default ${measured.perSecond.toFixed(1)}/s, limit ${limit.perSecond.toFixed(1)}/s`);
        }
      }
    } finally {
      await service.stop();
    }
  }
  lines.push('', `Load average at the end: ${load()} (${os.cpus().length} cores).`);
  return lines.join('\n');
}

if (isMain(import.meta.url)) await printAlone(engineRows);
