// Bench: what PostgreSQL (DATABASE_URL) costs per render against the files (DATA_DIR), on the
// invoice stored with each render (store: true: reserve, render, store bytes + record, count),
// and what a second instance adds. One run, servers side by side, measured in alternating rounds
// so the shared machine's drift falls on each alike. PostgreSQL: DATABASE_URL, else a throwaway
// cluster (tests/helpers/postgres.ts).
// Run: npx tsx bench/instances.ts   Settings: BENCH_SECONDS per round (default 4), BENCH_ROUNDS (3).

import { findChromium } from '../server/src/render/chromium-path.ts';
import { startTestDatabase } from '../tests/helpers/postgres.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';
import { invoiceHtml } from './workloads.ts';
import { timeRenders } from './cells.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = 2;
const BODY = JSON.stringify({ html: invoiceHtml(), store: true, options: { wait_until: 'load' } });

async function rate(server: ServiceProcess, seconds: number): Promise<{ renders: number; seconds: number }> {
  const once = async () => {
    const response = await server.render(BODY);
    if (response.status !== 200) throw new Error(`render answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  const { latencies, elapsedMs } = await timeRenders(once, CONCURRENCY, seconds, 0);
  return { renders: latencies.length, seconds: elapsedMs / 1000 };
}

async function main(): Promise<void> {
  const hooks: (() => Promise<void>)[] = [];
  // fsync on, as the files fsync: the comparison is of two durable stores.
  const database = await startTestDatabase({ after: (fn) => hooks.push(fn) }, { durable: true });
  const chromePath = (await findChromium(process.env.CHROME_PATH ?? '')).path;
  const files = await startServiceProcess({ chromePath });
  const postgres = await startServiceProcess({ chromePath, env: { DATABASE_URL: database.url } });
  try {
    const totals = new Map<string, { renders: number; seconds: number }>([
      ['files', { renders: 0, seconds: 0 }],
      ['postgresql', { renders: 0, seconds: 0 }],
    ]);
    await rate(files, 1);
    await rate(postgres, 1);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, server] of round % 2 === 0
        ? ([
            ['files', files],
            ['postgresql', postgres],
          ] as const)
        : ([
            ['postgresql', postgres],
            ['files', files],
          ] as const)) {
        const measured = await rate(server, SECONDS);
        const total = totals.get(name)!;
        total.renders += measured.renders;
        total.seconds += measured.seconds;
      }
    }
    const perSecond = (name: string) => totals.get(name)!.renders / totals.get(name)!.seconds;
    console.log(`invoice, store: true, concurrency ${CONCURRENCY}, ${ROUNDS} alternating rounds of ${SECONDS} s`);
    console.log(`files:      ${perSecond('files').toFixed(1)} renders/s`);
    console.log(`postgresql: ${perSecond('postgresql').toFixed(1)} renders/s`);
    console.log(`postgresql / files: ${(perSecond('postgresql') / perSecond('files')).toFixed(2)}`);
  } finally {
    await files.stop();
    await postgres.stop();
    for (const hook of hooks) await hook();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
