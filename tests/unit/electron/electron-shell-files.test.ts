// The desktop app's own files, without Electron: the rotating log file, the one-time move of the
// old "quire" folder's files to "Quire", and the test-only user-data variable that an installed
// app ignores.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../../server/src/logger.ts';
import { moveLegacyDataFolder } from '../../../electron/data-folder.ts';
import { OWN_ENTRIES, userDataOverride } from '../../../electron/desktop-config.ts';
import { LOG_FILE, RotatingLogFile } from '../../../electron/log-file.ts';

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-shell-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test("the log file takes pino's JSON lines and rotates by size, keeping a fixed number of older files", async (t) => {
  const dir = await tempDir(t);
  const file = new RotatingLogFile(path.join(dir, 'logs'), { maxBytes: 2_000, keep: 2 });
  const log = createLogger('info', file);
  for (let i = 0; i < 100; i++) log.info({ i }, 'a line of the desktop log');
  assert.deepEqual(readdirSync(path.join(dir, 'logs')).sort(), ['quire.1.log', 'quire.2.log', LOG_FILE]);
  for (const name of readdirSync(path.join(dir, 'logs'))) {
    const text = readFileSync(path.join(dir, 'logs', name), 'utf8');
    assert.ok(Buffer.byteLength(text) <= 2_000, `${name} stays under the cap`);
    for (const line of text.trim().split('\n')) assert.equal(JSON.parse(line).msg, 'a line of the desktop log');
  }
  const newest = readFileSync(path.join(dir, 'logs', LOG_FILE), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line).i as number);
  assert.equal(newest.at(-1), 99, 'the newest lines are in quire.log');
});

test('the old "quire" folder\'s own files move to "Quire" once; nothing is replaced, nothing moves while an old app runs on it', async (t) => {
  const appData = await tempDir(t);
  const legacy = path.join(appData, 'quire');
  const current = path.join(appData, 'Quire');
  await mkdir(path.join(legacy, 'data'), { recursive: true });
  await writeFile(path.join(legacy, 'data', 'admin-token'), 'adm_old');
  await writeFile(path.join(legacy, 'config.json'), '{"PORT": 4000}');
  await writeFile(path.join(legacy, 'Cookies'), "chromium's own");

  // A Quire still running on the old folder holds its SingletonLock: leave everything.
  symlinkSync(`host-${process.pid}`, path.join(legacy, 'SingletonLock'));
  assert.equal(moveLegacyDataFolder(legacy, current, OWN_ENTRIES).reason, 'old-folder-in-use');
  assert.ok(existsSync(path.join(legacy, 'data', 'admin-token')));
  await rm(path.join(legacy, 'SingletonLock'));

  // Electron may already have made the new folder, and the user a config there: that one wins.
  await mkdir(current, { recursive: true });
  await writeFile(path.join(current, 'config.json'), '{"PORT": 5000}');
  const outcome = moveLegacyDataFolder(legacy, current, OWN_ENTRIES);
  assert.deepEqual(outcome, { moved: ['data'], kept: ['config.json'] });
  assert.equal(await readFile(path.join(current, 'data', 'admin-token'), 'utf8'), 'adm_old');
  assert.equal(await readFile(path.join(current, 'config.json'), 'utf8'), '{"PORT": 5000}');
  assert.ok(existsSync(path.join(legacy, 'Cookies')), "Chromium's files stay behind");
  assert.deepEqual(moveLegacyDataFolder(legacy, current, OWN_ENTRIES), { moved: [], kept: ['config.json'] }, 'a second start moves nothing more');
  assert.equal(moveLegacyDataFolder(path.join(appData, 'none'), current, OWN_ENTRIES).reason, 'nothing-to-move');
  assert.equal(moveLegacyDataFolder(current, current, OWN_ENTRIES).reason, 'same-folder', 'a case-insensitive disk: one folder');
});

test("QUIRE_USER_DATA_DIR moves a development run's folder, never an installed app's", () => {
  assert.equal(userDataOverride(false, { QUIRE_USER_DATA_DIR: '/tmp/x' }), '/tmp/x');
  assert.equal(userDataOverride(true, { QUIRE_USER_DATA_DIR: '/tmp/x' }), undefined);
  assert.equal(userDataOverride(false, {}), undefined);
});
