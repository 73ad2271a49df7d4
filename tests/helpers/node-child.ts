// A child Node process whose whole output a test reads when it ends: a test lane run inside a test
// (tests/helpers/engine-lane.ts, tests/unit/scripts/run-tests.test.ts).

import { spawn } from 'node:child_process';

/** Runs `node ARGS` with `env` on top of ours; resolves with its exit code and stdout+stderr as they came. */
export function runNodeChild(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  // NODE_TEST_CONTEXT would make a node:test child talk the runner's internal protocol instead of reporting.
  const { NODE_TEST_CONTEXT: _, ...ours } = process.env;
  const child = spawn(process.execPath, args, { env: { ...ours, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
