// npm run test:engines: the API test files that cover the render path, run again on the other
// Chromium builds the project supports (tests/helpers/engines.ts); `npm run test:api` already
// runs them on the default build, the npm headless shell. Each lane is one `node --test` run with
// QUIRE_TEST_ENGINE set; its failing tests are quoted in the failure here.
// A build that is not installed skips its lane, saying so in the test's name; in CI nothing
// skips (scripts/setup.sh installs every build).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { engineById, missingEngine, type EngineId } from '../helpers/engines.ts';

interface Lane {
  engine: EngineId;
  /** What the lane checks on that build. */
  covers: string;
  files: string[];
}

// default-options.test.ts on every build: the defaults are what users call first, and a render
// path one build lacks (begin frames) has hidden a hang before (issue #30). The default build, the
// npm headless shell, is not run again here: `npm run test:api` runs default-options.test.ts on it.
const LANES: Lane[] = [
  {
    engine: 'debian-shell',
    covers: "rendering, waiting, isolation and teardown, the virtual clock and the page's time, default options",
    files: ['tests/api/virtual-time.test.ts', 'tests/api/page-clock.test.ts', 'tests/api/isolation.test.ts', 'tests/api/default-options.test.ts'],
  },
  {
    // No HeadlessExperimental domain, like Electron's Chromium: the virtual clock without drawn frames, or the wall clock.
    engine: 'debian-full',
    covers: "waiting and virtual-clock fidelity, the page's time, default options",
    files: ['tests/api/virtual-time.test.ts', 'tests/api/page-clock.test.ts', 'tests/api/default-options.test.ts'],
  },
  {
    // Electron cannot run here: its page source's CDP command sequence runs on a stand-in over full chromium.
    engine: 'electron-standin',
    covers: "waiting, virtual-clock fidelity, the page's time, isolation and teardown, default options",
    files: ['tests/api/virtual-time.test.ts', 'tests/api/page-clock.test.ts', 'tests/api/isolation.test.ts', 'tests/api/default-options.test.ts'],
  },
];

// The lanes run side by side: most of their time is spent waiting on pages' timers and the
// network-idle window, not on the CPU. Each lane has its own guard against a hang (not a time
// limit: its two or three files run one after another beside the other lanes, slower when loaded).
const PER_LANE_TIMEOUT_MS = 900_000;

test('the render-path tests pass on every installed Chromium build', { concurrency: true }, async (t) => {
  const lanes = LANES.map((lane) => {
    const engine = engineById(lane.engine);
    const missing = missingEngine(engine);
    const name = `${lane.covers} on ${engine.name}: ${lane.files.map((file) => file.replace(/^tests\/api\//, '')).join(', ')}`;
    return t.test(missing ? `${name} (skipped: ${missing})` : name, { skip: missing, timeout: PER_LANE_TIMEOUT_MS }, async (l) => {
      const run = await runTests(lane.files, engine.id);
      l.diagnostic(run.summary);
      assert.equal(run.code, 0, `on ${engine.name} (QUIRE_TEST_ENGINE=${engine.id}):\n${run.failures}`);
    });
  });
  await Promise.all(lanes);
});

/** Runs test files in a child `node --test` on one engine; returns its exit code, summary line and failing tests. */
function runTests(files: string[], engine: EngineId): Promise<{ code: number | null; summary: string; failures: string }> {
  // NODE_TEST_CONTEXT would make the child talk the runner's internal protocol instead of reporting.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files], {
    env: { ...env, QUIRE_TEST_ENGINE: engine },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const count = (what: string) => new RegExp(`^ℹ ${what} (\\d+)`, 'm').exec(output)?.[1] ?? '?';
      const summary = `${count('tests')} tests: ${count('pass')} passed, ${count('fail')} failed, ${count('skipped')} skipped`;
      const failing = output.indexOf('✖ failing tests:');
      resolve({ code, summary, failures: failing >= 0 ? output.slice(failing) : output.slice(-4000) });
    });
  });
}
