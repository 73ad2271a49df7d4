// The pool under scripts/run-tests.ts: runs jobs (a node:test file, or a lane's one command) as
// processes of their own, up to a number of slots at once, and prints each job's output whole
// when it ends, so two jobs' lines never mix and the ℹ summary lines that .ci/run adds up stay intact.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const TIMINGS = path.join('test-results', 'timings');
/** Longer than any file takes on a loaded 2-core machine (QUIRE_TEST_FILE_TIMEOUT_MS overrides, for the pool's own test). */
const JOB_TIMEOUT_MS = Number(process.env.QUIRE_TEST_FILE_TIMEOUT_MS ?? 20 * 60_000);
const poolStarted = performance.now();

export interface Job {
  lane: string;
  /** What the job runs: a test file, or the lane's command line. */
  file: string;
  argv: string[];
  env: NodeJS.ProcessEnv;
  /** Pool slots it takes (Playwright's two workers take two). */
  slots: number;
  /** Whether a failed first try runs again alone under CI (Playwright retries on its own). */
  retries: boolean;
  /** `test-lane: alone`: runs after the others with nothing beside it. */
  alone?: boolean;
  /** Where a hung node:test file writes its diagnostic report (it runs with --report-on-signal). */
  reportDir?: string;
}

export interface JobRun {
  job: Job;
  ms: number;
  /** When it ended, from the start of the run. */
  endedMs: number;
  ok: boolean;
  /** CPU of the job's process tree (Linux; undefined elsewhere): see reapedCpuMs. */
  cpuMs?: number;
  /** A failed run's failing tests, as node:test summed them up (else its last lines): see failureExcerpt. */
  failures?: string;
}

export interface PoolOptions {
  /** Several lanes: each job's header names its lane. */
  tagged: boolean;
  /** A failed try will be run again: its counts, but for its failures under failOnFlakes, are marked "first try". */
  retried?: boolean;
  failOnFlakes: boolean;
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Whether the file says `test-lane: TAG` (alone, own-server) in a comment in its first 20 lines. */
export function hasLaneTag(file: string, tag: string): boolean {
  return readFileSync(file, 'utf8')
    .split('\n', 20)
    .some((line) => new RegExp(`^//.*\\btest-lane: ${tag}\\b`).test(line));
}

function runJob(job: Job, options: PoolOptions): Promise<JobRun> {
  const started = performance.now();
  const [command, ...args] = job.argv;
  return new Promise((resolve) => {
    // A node:test file runs as the program itself (node:test runs its tests and sets the exit code),
    // one process rather than node --test's runner plus a child per file: ~0.7 s less per file.
    // Its own process group, so a timeout ends what it started too.
    const child = spawn(command!, args, { env: job.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const output: Buffer[] = [];
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      // A node:test file that hangs is asked first for Node's diagnostic report (its open handles:
      // timers, sockets, child processes), so what kept it alive can be found; then it is ended.
      const reported = job.reportDir !== undefined && child.kill('SIGUSR2');
      const where = reported ? `; its open handles are in a diagnostic report in ${job.reportDir}` : '';
      output.push(Buffer.from(`\n${job.file} did not end within ${JOB_TIMEOUT_MS / 60_000} min: stopped${where}\n`));
      if (reported) setTimeout(stop, 3_000);
      else stop();
    }, JOB_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`\n${job.file} could not start: ${error.message}\n`)));
    let cpuMs: number | undefined;
    child.on('exit', () => {
      cpuMs = reapedCpuMs();
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      const text = Buffer.concat(output).toString();
      const ok = code === 0;
      const run = { job, ms, endedMs: performance.now() - poolStarted, ok, cpuMs, failures: ok ? undefined : failureExcerpt(text) };
      const name = `${options.tagged ? `[${job.lane}] ` : ''}${job.file}`;
      const cpu = cpuMs === undefined ? '' : `, ${seconds(cpuMs)} of CPU`;
      if (!run.ok && options.retried && job.retries) {
        // A first try that will run again: its passes would count twice in .ci/run's sums; its
        // failures count when flaky files fail the run.
        const marked = text.replace(options.failOnFlakes ? /^ℹ (?!fail )/gm : /^ℹ /gm, 'first try: ');
        process.stdout.write(`\n━━ ${name} (${seconds(ms)}${cpu}, FAILED on its first try: running it again alone)\n${marked}`);
      } else {
        process.stdout.write(`\n━━ ${name} (${seconds(ms)}${cpu}${run.ok ? '' : ', FAILED'})\n${text}`);
      }
      resolve(run);
    });
  });
}

/**
 * Why a file failed, short enough to repeat at the end of the run: CI shows only the run's last
 * lines, so a flaky file's first try would otherwise be out of sight (stop 51 failed on a file
 * whose failure no one could read). node:test's "✖ failing tests:" part, else the last lines.
 */
export function failureExcerpt(text: string, maxLines = 30): string {
  // Blank lines and Node's own stack frames say nothing about the failure.
  const lines = text
    .trimEnd()
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^\s+at .*\(?node:/.test(line));
  const summary = lines.findIndex((line) => line.startsWith('✖ failing tests:'));
  const picked = summary >= 0 ? lines.slice(summary + 1, summary + 1 + maxLines) : lines.slice(-Math.min(15, maxLines));
  return picked.map((line) => `    ${line}`).join('\n');
}

/** Runs the jobs in the order given, as many at once as `width` slots allow. */
export function runPool(queue: Job[], width: number, options: PoolOptions): Promise<JobRun[]> {
  const runs: JobRun[] = [];
  const waiting = [...queue];
  let free = width;
  // What was reaped before (the build) is no job's.
  reapedSoFar = childrenCpuMs();
  return new Promise((resolve) => {
    const startMore = () => {
      if (waiting.length === 0 && free === width) return resolve(runs);
      for (let index = 0; index < waiting.length; ) {
        const job = waiting[index]!;
        const slots = Math.min(job.slots, width);
        if (slots > free) {
          index++;
          continue;
        }
        waiting.splice(index, 1);
        free -= slots;
        void runJob(job, options).then((run) => {
          runs.push(run);
          free += slots;
          startMore();
        });
      }
    };
    startMore();
  });
}

/** Each job's time in the last recorded run of its lane, keyed `lane file`. */
export function lastTimes(lanes: string[]): Map<string, number> {
  const times = new Map<string, number>();
  for (const lane of lanes) {
    try {
      const record = JSON.parse(readFileSync(path.join(TIMINGS, `${lane}.json`), 'utf8')) as { files: { file: string; ms: number }[] };
      for (const run of record.files) times.set(`${lane} ${run.file}`, run.ms);
    } catch {
      // no earlier run of this lane: its files count as new
    }
  }
  return times;
}

/**
 * CPU time of the processes this runner waited for (the files, their servers and Chromiums, the
 * shared server): on a machine shared with other work it compares runs where wall time cannot.
 * Linux's /proc/self/stat (cutime + cstime, in clock ticks of 1/100 s); undefined elsewhere.
 */
export function childrenCpuMs(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}

let reapedSoFar = childrenCpuMs();
/**
 * The CPU of the children reaped since the last call: called as a job's process exits, that is the
 * job's own tree (its servers and Chromiums included; a shared server's is counted when it stops).
 * Two jobs reaped in the same turn of the event loop are counted together, on the first.
 */
function reapedCpuMs(): number | undefined {
  const now = childrenCpuMs();
  if (now === undefined || reapedSoFar === undefined) return undefined;
  const spent = now - reapedSoFar;
  reapedSoFar = now;
  return spent;
}
