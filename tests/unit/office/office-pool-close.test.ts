// OfficePool.close() while a LibreOffice is still starting: the start is killed, not waited for.
// A cold soffice takes many seconds on a loaded machine; the desktop app's quit (and the
// electron-server-host test on Node 26 in CI) used to wait for it to finish starting first.
// The "bridge" here is a shell that never says ready, so only the kill can end it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../../server/src/logger.ts';
import { OfficePool } from '../../../server/src/office/office-pool.ts';
import { waitFor } from '../../helpers/wait-for.ts';

/** Pids whose command line is exactly `sleep <seconds>` (the stand-in soffice of this test). */
function sleepers(seconds: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === `sleep\0${seconds}\0`;
      } catch {
        return false;
      }
    })
    .map(Number);
}

test('closing the pool while a LibreOffice is still starting kills that start and resolves', { timeout: 30_000 }, async (t) => {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'quire-office-close-'));
  t.after(() => rm(workDir, { recursive: true, force: true }));
  // A duration no other process uses, so the stand-in is found by its command line.
  const seconds = `${600 + (process.pid % 1000)}.${Date.now() % 1000}`;
  const pool = new OfficePool({
    // `sh -c 'exec sleep N' profile pipe timeout`: the bridge's arguments, and no "ready" line ever.
    install: { python: '/bin/sh', bridge: '-c', soffice: `exec sleep ${seconds}` },
    workDir,
    concurrency: 1,
    restartAfter: 0,
    isolateNetwork: false,
    queueSize: 1,
    queueTimeoutMs: 1000,
    log: createLogger('silent'),
    // Far beyond the test's timeout: only close() can end the start.
    startTimeoutMs: 3_600_000,
  });
  const warming = pool.warm();
  await waitFor(() => sleepers(seconds).length === 1, 'the stand-in LibreOffice to be running');
  const [pid] = sleepers(seconds);
  await pool.close();
  await warming;
  await waitFor(() => !existsSync(`/proc/${pid}`) || readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '), 'the stand-in to be killed');
  assert.deepEqual(sleepers(seconds), []);
  assert.equal(pool.stats().alive, 0);
});
