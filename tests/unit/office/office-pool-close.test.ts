// OfficePool.close() while a LibreOffice is still starting: the start is killed, not waited for.
// A cold soffice takes many seconds on a loaded machine; the desktop app's quit (and the
// electron-server-host test on Node 26 in CI) used to wait for it to finish starting first.
// The "bridge" there is a shell that never says ready, so only the kill can end it. And close()
// right after a replacement waits for the replaced process, which writes its profile while it stops.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../../server/src/logger.ts';
import { OfficePool } from '../../../server/src/office/office-pool.ts';
import { DEFAULT_OFFICE_OPTIONS, splitOfficeOptions } from '../../../server/src/office/office-options.ts';
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

/** Pids (not zombies) whose command line names a path under `dir`: the pool's bridges, by their profile folders. */
function runningIn(dir: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * A bridge that converts by copying, then, like LibreOffice closing, writes its profile's user/pack
 * for a while after its stdin ends (python3 -c CODE profile pipe timeout: the bridge's arguments).
 */
const CLOSING_BRIDGE = `
import json, os, shutil, sys, time
profile = sys.argv[1]
print(json.dumps({"ready": True, "version": "Fake 1"}), flush=True)
for line in sys.stdin:
    job = json.loads(line)
    shutil.copy(job["input"], job["output"])
    print(json.dumps({"id": job["id"], "ok": True}), flush=True)
for i in range(30):
    os.makedirs(os.path.join(profile, "user", "pack"), exist_ok=True)
    open(os.path.join(profile, "user", "pack", "f%d" % i), "w").close()
    time.sleep(0.05)
`;

test('closing the pool right after OFFICE_RESTART_AFTER replaced a process waits for the old one, then removes the work folder', {
  timeout: 60_000,
}, async (t) => {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'quire-office-retire-'));
  t.after(() => rm(workDir, { recursive: true, force: true }));
  const pool = new OfficePool({
    install: { python: '/usr/bin/python3', bridge: '-c', soffice: CLOSING_BRIDGE },
    workDir,
    concurrency: 1,
    restartAfter: 1,
    isolateNetwork: false,
    queueSize: 1,
    queueTimeoutMs: 1000,
    log: createLogger('silent'),
  });
  const pdf = await pool.convert({
    bytes: new TextEncoder().encode('%PDF-1.4 stand-in'),
    kind: 'docx',
    options: splitOfficeOptions(DEFAULT_OFFICE_OPTIONS).exportOptions,
    timeoutMs: 30_000,
  });
  assert.equal(new TextDecoder().decode(pdf), '%PDF-1.4 stand-in');
  assert.equal(pool.stats().restarts, 1, 'the process was replaced after its one conversion');
  // Before: close() removed the folder while the replaced process still wrote into it (ENOTEMPTY,
  // or the folder made again behind it) and resolved with that process still running.
  await pool.close();
  assert.deepEqual(runningIn(workDir), [], 'no bridge of the pool is still running');
  assert.equal(existsSync(workDir), false, `nothing is left in ${workDir}`);
});
