// tests/helpers/late-hooks.ts: a hook registered after its test timed out still runs (node:test's
// own t.after() then never does, and a server started that late kept its file from ending).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '..', '..', '..');

/** Runs a test file whose one test times out and, once node:test is done with it, registers a hook that writes a mark; what the mark says. */
async function hookAfterTimeout(t: { after(fn: () => Promise<void>): void }, wrap: boolean): Promise<string | undefined> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-late-hooks-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const mark = path.join(dir, 'mark');
  const file = path.join(dir, 'late.test.ts');
  await writeFile(
    file,
    `import { test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { closingLate } from ${JSON.stringify(path.join(REPO, 'tests', 'helpers', 'late-hooks.ts'))};
test('starts its server after its time is up', { timeout: 1 }, async (t) => {
  // Once node:test is done with the test and the file (the timeout ends the test, not its body).
  await new Promise((resolve) => process.once('beforeExit', resolve));
  (${wrap} ? closingLate(t) : t).after(async () => writeFileSync(${JSON.stringify(mark)}, 'stopped'));
});
`,
  );
  // Without NODE_TEST_CONTEXT, or the child takes itself for a run nested in this one and runs nothing.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', file], { cwd: REPO, encoding: 'utf8', env });
  assert.equal(run.status, 1, `the test times out: ${run.stdout}${run.stderr}`);
  return readFile(mark, 'utf8').catch(() => undefined);
}

test("a hook registered after the test timed out runs at once through closingLate, and never through node:test's own after()", async (t) => {
  assert.equal(await hookAfterTimeout(t, true), 'stopped');
  assert.equal(await hookAfterTimeout(t, false), undefined);
});
