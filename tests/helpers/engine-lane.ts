// One lane of the engine matrix (npm run test:engines): the API test files that cover the render
// path, run again on one of the other Chromium builds (engines.ts) in a child `node --test` with
// QUIRE_TEST_ENGINE set; its failing tests are quoted in the failure. One test file per build in
// tests/engines/, so the lane's pool runs two builds side by side (issue 40).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineById, missingEngine, type EngineId } from './engines.ts';
import { runNodeChild } from './node-child.ts';

export interface EngineLane {
  engine: EngineId;
  /** What the lane checks on that build. */
  covers: string;
  files: string[];
}

/**
 * A guard against a hang, not a time limit: the lane's files run one after another, slower when
 * loaded. 15 min cut a lane off at a load average of 60-100 (issue 40's measuring run); just under
 * run-tests.ts's 20 min per file, so the failure still names the lane.
 */
const LANE_TIMEOUT_MS = 19 * 60_000;

/**
 * The lane's test. A build that is not installed skips it, saying so in the test's name; in CI
 * nothing skips (scripts/setup.sh installs every build).
 */
export function engineLaneTest(lane: EngineLane): void {
  const engine = engineById(lane.engine);
  const missing = missingEngine(engine);
  const name = `${lane.covers} on ${engine.name}: ${lane.files.map((file) => file.replace(/^tests\/api\//, '')).join(', ')}`;
  test(missing ? `${name} (skipped: ${missing})` : name, { skip: missing, timeout: LANE_TIMEOUT_MS }, async (t) => {
    const run = await runTests(lane.files, engine.id);
    t.diagnostic(run.summary);
    assert.equal(run.code, 0, `on ${engine.name} (QUIRE_TEST_ENGINE=${engine.id}):\n${run.failures}`);
  });
}

/** Runs test files in a child `node --test` on one engine; returns its exit code, summary line and failing tests. */
async function runTests(files: string[], engine: EngineId): Promise<{ code: number | null; summary: string; failures: string }> {
  const { code, output } = await runNodeChild(['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files], {
    QUIRE_TEST_ENGINE: engine,
  });
  const count = (what: string) => new RegExp(`^ℹ ${what} (\\d+)`, 'm').exec(output)?.[1] ?? '?';
  const summary = `${count('tests')} tests: ${count('pass')} passed, ${count('fail')} failed, ${count('skipped')} skipped`;
  const failing = output.indexOf('✖ failing tests:');
  return { code, summary, failures: failing >= 0 ? output.slice(failing) : output.slice(-4000) };
}
