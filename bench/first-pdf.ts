// Bench: start-up to first PDF, as an operator meets it: spawn the server the way `npm start`
// runs it, wait for its "listening" line, then time one playground render. Compares the compiled
// server (node dist/server/main.mjs; run `npm run build:server` first) with the TypeScript source
// run through tsx. Reports the median of RUNS starts each, wall time and the server's CPU time
// (steadier on a shared machine), and the node process's RSS after the first PDF.
// Run: npx tsx bench/first-pdf.ts [runs]

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stopDetached, waitForListening } from './service-process.ts';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 5);

const variants: { name: string; argv: string[] }[] = [
  { name: 'tsx server/src/main.ts (before)', argv: [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'server/src/main.ts'] },
  { name: 'node --enable-source-maps dist/server/main.mjs', argv: ['--enable-source-maps', 'dist/server/main.mjs'] },
];

interface Sample {
  listeningMs: number;
  firstPdfMs: number;
  cpuMs: number;
  rssMb: number;
}

async function once(argv: string[]): Promise<Sample> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-first-pdf-'));
  const started = performance.now();
  const child = spawn(process.execPath, argv, {
    cwd: root,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, ADMIN_TOKEN: `bench-first-pdf-${process.pid}`, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  try {
    const { url } = await waitForListening(child);
    const listeningMs = performance.now() - started;
    const response = await fetch(`${url}/v1/playground/pdf`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ html: '<h1>First</h1>', options: { wait_until: 'load' } }),
    });
    const pdf = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200 || pdf.subarray(0, 5).toString() !== '%PDF-') throw new Error(`first render answered ${response.status}`);
    const firstPdfMs = performance.now() - started;
    // The server process is the spawned node, or for the tsx CLI its one child: count the whole group.
    const { cpuMs, rssMb } = await groupUsage(child.pid!);
    return { listeningMs, firstPdfMs, cpuMs, rssMb };
  } finally {
    await stopDetached(child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** CPU time and RSS of the server's own processes (node, and tsx's esbuild service): Chromium is left out, the same in both. */
async function groupUsage(pgid: number): Promise<{ cpuMs: number; rssMb: number }> {
  const ticks = 100; // USER_HZ on Linux
  let cpuMs = 0;
  let rssMb = 0;
  for (const pid of await groupPids(pgid)) {
    const stat = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
    cpuMs += ((Number(stat[11]) + Number(stat[12])) * 1000) / ticks;
    rssMb += (Number(stat[21]) * 4096) / 1024 / 1024;
  }
  return { cpuMs, rssMb };
}

async function groupPids(pgid: number): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const [comm, rest] = [stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), stat.slice(stat.lastIndexOf(')') + 2).split(' ')];
    if (Number(rest[2]) === pgid && !/chrom|headless/i.test(comm)) pids.push(Number(name));
  }
  return pids;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

if (!existsSync(path.join(root, 'dist', 'server', 'main.mjs'))) throw new Error('dist/server/main.mjs is missing: run `npm run build:server` first');
console.log(
  `load average ${os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}, ${runs} starts each, medians\n`,
);
console.log('| server | listening ms | first PDF ms | server CPU ms to first PDF | server RSS MB |');
console.log('|---|---|---|---|---|');
for (const variant of variants) {
  const samples: Sample[] = [];
  for (let at = 0; at < runs; at++) samples.push(await once(variant.argv));
  const row = [
    median(samples.map((s) => s.listeningMs)),
    median(samples.map((s) => s.firstPdfMs)),
    median(samples.map((s) => s.cpuMs)),
    median(samples.map((s) => s.rssMb)),
  ];
  console.log(`| ${variant.name} | ${row.map((value) => value.toFixed(0)).join(' | ')} |`);
}
