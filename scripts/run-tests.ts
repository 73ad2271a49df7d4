// Runs test lanes (scripts/test-lanes.ts) in one pool: each node:test file in its own process (as
// node --test does), up to --concurrency at once over every lane given, slowest first by the last
// run, each file's output printed whole when it ends (never interleaved with another's); then each
// lane's time, the run's CPU and the slowest files. `npm test` gives every lane at once, so the
// two cores stay busy to the end instead of waiting on each lane's last file; a lane named alone
// (`npm run test:unit`) runs alone. The times go to test-results/timings/ for scripts/test-report.ts.
//   node --import tsx scripts/run-tests.ts [--concurrency N] LANE...
//   node --import tsx scripts/run-tests.ts --label NAME [--shared-server] [--compiled-server] FILE...
// A file whose first lines say `test-lane: alone` (it loads the machine on purpose, or counts
// processes) runs after the others with nothing beside it. Exit status 1 when any file failed.
// Under CI (or QUIRE_TEST_RETRIES=1) a file that failed runs once more, alone, after the others, so
// the log shows whether it fails alone too. Both tries are printed (the first one's summary lines
// marked "first try"), and a file that failed and then passed is listed as flaky and fails the run
// too, its first try's failures counted (a newcomer has no retry, so a file that needs one is a bug
// to find; docs/testing.md#retries-under-ci). QUIRE_TEST_FLAKES=pass lets a flaky file pass, for
// hunting several flakes in one run.
// Playwright (the e2e lane) retries on its own, with failOnFlakyTests.

import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildLaneServer, COMPILED_SERVER_ENV } from '../tests/helpers/compiled-server.ts';
import { SHARED_SERVER_ENV, startSharedServer } from '../tests/helpers/shared-server.ts';
import { childrenCpuMs, hasLaneTag, type Job, type JobRun, lastTimes, runPool, seconds, TIMINGS } from './test-pool.ts';
import { LANES, type Lane, laneFiles } from './test-lanes.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  // Three at once by default on two cores: API files wait on Chromium and timers enough that a
  // third beside them costs no more CPU and cuts the wall time (docs/testing.md, issue 40).
  options: {
    concurrency: { type: 'string', default: process.env.QUIRE_TEST_CONCURRENCY ?? '3' },
    slowest: { type: 'string', default: '10' },
    label: { type: 'string' },
    'shared-server': { type: 'boolean', default: false },
    'compiled-server': { type: 'boolean', default: false },
  },
});
const concurrency = Math.max(1, Number(values.concurrency));
const failOnFlakes = process.env.QUIRE_TEST_FLAKES !== 'pass';

// The lanes to run: named ones from the table, or one ad hoc lane of the files given.
const lanes: [string, Lane][] = values.label
  ? [[values.label, { patterns: positionals, sharedServer: values['shared-server'], compiledServer: values['compiled-server'] }]]
  : positionals.map((name) => {
      const lane = LANES[name];
      if (!lane) throw new Error(`no test lane "${name}": the lanes are ${Object.keys(LANES).join(', ')} (scripts/test-lanes.ts)`);
      return [name, lane];
    });
if (lanes.length === 0) throw new Error('name a lane (scripts/test-lanes.ts) or give --label and files');

const started = performance.now();
const load = os.loadavg()[0]!.toFixed(2);
const [shared, compiled] = await Promise.all([
  lanes.some(([, lane]) => lane.sharedServer) ? startSharedServer() : undefined,
  lanes.some(([, lane]) => lane.compiledServer) ? buildLaneServer() : undefined,
]);
// A file that hangs past the pool's limit writes Node's diagnostic report on SIGUSR2 (scripts/test-pool.ts).
const HUNG = path.join('test-results', 'hung');
mkdirSync(HUNG, { recursive: true });
const REPORT_ON_HANG = ['--report-on-signal', '--report-signal=SIGUSR2', `--report-directory=${HUNG}`];
const jobs: Job[] = lanes.flatMap(([label, lane]): Job[] => {
  const env = { ...process.env, ...lane.env, ...(compiled && lane.compiledServer ? { [COMPILED_SERVER_ENV]: compiled.dir } : {}) };
  if (lane.command) return [{ lane: label, file: lane.command.argv.join(' '), argv: lane.command.argv, env, slots: lane.command.slots, retries: false }];
  return laneFiles(lane).map((file) => ({
    lane: label,
    file,
    argv: [process.execPath, ...REPORT_ON_HANG, '--import', 'tsx', '--test-reporter=spec', file],
    reportDir: HUNG,
    env: shared && lane.sharedServer && !hasLaneTag(file, 'own-server') ? { ...env, [SHARED_SERVER_ENV]: JSON.stringify(shared.server) } : env,
    slots: 1,
    retries: true,
    alone: hasLaneTag(file, 'alone'),
  }));
});
const retry = Boolean(process.env.CI) || process.env.QUIRE_TEST_RETRIES === '1';
const options = { tagged: lanes.length > 1, failOnFlakes };
// Slowest first by the last run (new files first: their time is unknown), so a long file does not
// start last and leave one worker running alone at the end.
const last = lastTimes(lanes.map(([label]) => label));
const ordered = [...jobs].sort((a, b) => (last.get(`${b.lane} ${b.file}`) ?? Infinity) - (last.get(`${a.lane} ${a.file}`) ?? Infinity));
const together = ordered.filter((job) => !job.alone);
const firstTries = [
  ...(await runPool(together, concurrency, { ...options, retried: retry })),
  ...(await runPool(
    ordered.filter((job) => job.alone),
    1,
    { ...options, retried: retry },
  )),
];
const secondTries = retry
  ? await runPool(
      firstTries.filter((run) => !run.ok && run.job.retries).map((run) => run.job),
      1,
      options,
    )
  : [];
await shared?.stop();
await compiled?.remove();
const runs = firstTries.map((run) => secondTries.find((again) => again.job === run.job) ?? run);
const flaky = secondTries.filter((run) => run.ok);
const failed = runs.filter((run) => !run.ok);
const runMs = performance.now() - started;
const cpuMs = childrenCpuMs();

mkdirSync(TIMINGS, { recursive: true });
const cpu = cpuMs === undefined ? '' : `, ${seconds(cpuMs)} of CPU`;
console.log(
  `\n${lanes.map(([label]) => label).join(' + ')}: ${runs.length} jobs in ${seconds(runMs)}${cpu} (${concurrency} at once; load average ${load} at the start)`,
);
for (const [label] of lanes) {
  const mine = runs.filter((run) => run.job.lane === label);
  const ended = Math.max(0, ...mine.map((run) => run.endedMs));
  const fileMs = mine.reduce((sum, run) => sum + run.ms, 0);
  const record = { label, ms: ended, fileMs, cpuMs: lanes.length === 1 ? cpuMs : undefined, together: lanes.length > 1, concurrency, load };
  writeFileSync(
    path.join(TIMINGS, `${label}.json`),
    JSON.stringify({ ...record, files: mine.map((run) => ({ file: run.job.file, ms: run.ms, ok: run.ok, cpuMs: run.cpuMs })) }),
  );
  if (lanes.length > 1) console.log(`  ${label}: ${mine.length} files, the last ended ${seconds(ended)} after the start; ${seconds(fileMs)} of file time`);
}
if (lanes.length > 1) {
  // The run as a whole, for scripts/test-report.ts: the lanes' own records have no CPU of their own.
  const record = { label: lanes.map(([label]) => label).join(' + '), ms: runMs, cpuMs, concurrency, load, files: [] };
  writeFileSync(path.join(TIMINGS, 'lanes-together.json'), JSON.stringify(record));
}
const slowest = [...runs].sort((a, b) => b.ms - a.ms).slice(0, Number(values.slowest));
console.log(
  `slowest files:\n${slowest.map((run) => `  ${seconds(run.ms).padStart(8)}  ${run.job.file}${options.tagged ? ` (${run.job.lane})` : ''}`).join('\n')}`,
);
const costliest = runs.filter((run) => run.cpuMs !== undefined).sort((a, b) => b.cpuMs! - a.cpuMs!);
if (costliest.length > 0) {
  // What to cut for a faster `npm test`: CPU, not wall time, is the floor on 2 cores.
  const filesCpu = costliest.reduce((sum, run) => sum + run.cpuMs!, 0);
  const rest = cpuMs === undefined ? '' : `; the shared and compiled servers and the build: ${seconds(cpuMs - filesCpu)}`;
  console.log(`most CPU (the files' own: ${seconds(filesCpu)}${rest}):`);
  console.log(
    costliest
      .slice(0, Number(values.slowest))
      .map((run) => `  ${seconds(run.cpuMs!).padStart(8)}  ${run.job.file}${options.tagged ? ` (${run.job.lane})` : ''}`)
      .join('\n'),
  );
}
if (flaky.length > 0) {
  console.log(`flaky files (failed, then passed alone${failOnFlakes ? '; they fail the run' : ''}: find the cause, see tests/helpers/wait-for.ts):`);
  // Each with its first try's failures: the first try's output is far above the run's end.
  const firstTry = (run: JobRun) => firstTries.find((first) => first.job === run.job)?.failures ?? '';
  console.log(flaky.map((run) => `  ${run.job.file} (${run.job.lane})\n${firstTry(run)}`).join('\n'));
}
if (failed.length > 0) console.log(`failed files:\n${failed.map((run) => `  ${run.job.file} (${run.job.lane})\n${run.failures ?? ''}`).join('\n')}`);
if (failed.length > 0 || (failOnFlakes && flaky.length > 0)) process.exitCode = 1;
