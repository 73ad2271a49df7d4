// The pool and lane table under `npm test` (scripts/test-pool.ts, scripts/test-lanes.ts): every
// lane runs in one pool, so a job never takes more slots than are free (Playwright's two workers
// count as two), each job's output is printed whole, and a lane's pattern finds its files.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expandPattern, LANES, laneFiles } from '../../../scripts/test-lanes.ts';
import { type Job, runPool } from '../../../scripts/test-pool.ts';

/** A job that logs `+name slots` when it starts and `-name slots` when it ends, after a few ticks. */
function job(name: string, slots: number, log: string): Job {
  const script = `const fs = require('node:fs'); fs.appendFileSync(${JSON.stringify(log)}, '+${name} ${slots}\\n'); setTimeout(() => fs.appendFileSync(${JSON.stringify(log)}, '-${name} ${slots}\\n'), 50);`;
  return { lane: 'check', file: name, argv: [process.execPath, '-e', script], env: process.env, slots, retries: false };
}

test('the pool never runs more slots at once than it has, and runs every job once', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-test-pool-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const log = path.join(dir, 'log');
  const jobs = [job('wide', 2, log), ...['a', 'b', 'c', 'd'].map((name) => job(name, 1, log)), job('wider-than-the-pool', 5, log)];
  const written: string[] = [];
  const write = process.stdout.write;
  t.after(() => {
    process.stdout.write = write;
  });
  process.stdout.write = ((chunk: string) => written.push(chunk) > 0) as typeof process.stdout.write;
  const runs = await runPool(jobs, 3, { tagged: true, failOnFlakes: false });
  process.stdout.write = write;

  assert.deepEqual(runs.map((run) => run.job.file).sort(), ['a', 'b', 'c', 'd', 'wide', 'wider-than-the-pool']);
  assert.ok(runs.every((run) => run.ok));
  let busy = 0;
  let most = 0;
  for (const line of (await readFile(log, 'utf8')).trim().split('\n')) {
    const slots = Math.min(3, Number(line.split(' ')[1]));
    busy += line.startsWith('+') ? slots : -slots;
    most = Math.max(most, busy);
  }
  assert.equal(busy, 0);
  assert.ok(most <= 3, `${most} slots were busy at once`);
  // Each job's output is one write, headed by its lane and name.
  assert.equal(written.filter((chunk) => chunk.startsWith('\n━━ [check] ')).length, 6);
});

test('a lane pattern finds the files it names, and the two-instance lane holds the fast lane', () => {
  const unit = expandPattern('tests/unit/*/test-pool.test.ts');
  assert.deepEqual(unit, [path.join('tests', 'unit', 'scripts', 'test-pool.test.ts')]);
  assert.deepEqual(expandPattern('tests/no-such-folder/*.test.ts'), []);
  const two = laneFiles(LANES.two!);
  for (const file of laneFiles(LANES.fast!)) assert.ok(two.includes(file), file);
  assert.ok(laneFiles(LANES.api!).length > 50);
  assert.equal(LANES.e2e!.command?.slots, 2);
});

test('each job is charged the CPU its own process spent, one job at a time', { skip: process.platform !== 'linux' && 'needs /proc (Linux)' }, async () => {
  // Spins until its own CPU time reaches `ms`: a measure of work, not of time.
  const spin = (name: string, ms: number): Job => ({
    lane: 'check',
    file: name,
    argv: [process.execPath, '-e', `const start = process.cpuUsage(); while ((process.cpuUsage(start).user + process.cpuUsage(start).system) / 1000 < ${ms});`],
    env: process.env,
    slots: 1,
    retries: false,
  });
  // Not silenced: the reporter may still be writing the earlier tests' lines (two short job lines print).
  const runs = await runPool([spin('idle', 0), spin('busy', 400)], 1, { tagged: false, failOnFlakes: false });
  const cpu = Object.fromEntries(runs.map((run) => [run.job.file, run.cpuMs ?? -1]));
  assert.ok(cpu.busy! >= 400, `busy: ${cpu.busy} ms`);
  assert.ok(cpu.idle! < cpu.busy! - 300, `idle: ${cpu.idle} ms, busy: ${cpu.busy} ms`);
});
