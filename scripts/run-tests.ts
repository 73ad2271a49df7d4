// Runs node:test files as one lane of `npm test`: each file in its own process (as node --test
// does), up to --concurrency at once, its output printed whole when it ends (never interleaved
// with another file's), then the lane's time and its slowest files. A file whose first lines say
// `test-lane: alone` (it loads the machine on purpose, or times what it measures) runs after the
// others with nothing beside it. Exit status 1 when any file failed.
//   node --import tsx scripts/run-tests.ts [--concurrency N] [--slowest N] FILE...
// The files are given by the shell's globs (tests/api/*.test.ts), so a new file joins its lane by
// being there. Each file prints node's own summary (ℹ pass N ...), which .ci/run adds up.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals: files } = parseArgs({
  allowPositionals: true,
  options: { concurrency: { type: 'string', default: '1' }, slowest: { type: 'string', default: '10' }, label: { type: 'string', default: 'lane' } },
});
const concurrency = Math.max(1, Number(values.concurrency));

interface FileRun {
  file: string;
  ms: number;
  ok: boolean;
}

/** Whether the file asks to run alone: a `test-lane: alone` comment in its first 20 lines. */
function runsAlone(file: string): boolean {
  return readFileSync(file, 'utf8').split('\n', 20).some((line) => /^\/\/.*\btest-lane: alone\b/.test(line));
}

function runFile(file: string): Promise<FileRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      const run = { file, ms: performance.now() - started, ok: code === 0 };
      process.stdout.write(`\n▶ ${file} (${seconds(run.ms)}${run.ok ? '' : ', FAILED'})\n${Buffer.concat(output).toString()}`);
      resolve(run);
    });
  });
}

/** Runs the files, `width` at a time, in the order given. */
async function runPool(queue: string[], width: number): Promise<FileRun[]> {
  const runs: FileRun[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, queue.length) }, async () => {
      while (next < queue.length) runs.push(await runFile(queue[next++]!));
    }),
  );
  return runs;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const started = performance.now();
const load = os.loadavg()[0]!.toFixed(2);
const alone = files.filter(runsAlone);
const runs = [...(await runPool(files.filter((file) => !alone.includes(file)), concurrency)), ...(await runPool(alone, 1))];
const failed = runs.filter((run) => !run.ok);
const slowest = [...runs].sort((a, b) => b.ms - a.ms).slice(0, Number(values.slowest));
console.log(`\n${values.label}: ${runs.length} files in ${seconds(performance.now() - started)} (${concurrency} at once; load average ${load} at the start)`);
console.log(`slowest files:\n${slowest.map((run) => `  ${seconds(run.ms).padStart(8)}  ${path.relative(process.cwd(), run.file)}`).join('\n')}`);
if (failed.length > 0) {
  console.log(`failed files:\n${failed.map((run) => `  ${run.file}`).join('\n')}`);
  process.exitCode = 1;
}
