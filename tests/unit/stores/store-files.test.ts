import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { JsonFile, StoreReadError } from '../../../server/src/stores/json-file.ts';
import { KeysStore, type KeyRecord } from '../../../server/src/stores/keys.ts';
import { UsageStore } from '../../../server/src/stores/usage.ts';

async function tempDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-store-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function keyRecord(n: number, overrides: Partial<KeyRecord> = {}): KeyRecord {
  const at = '2026-05-01T00:00:00.000Z';
  return {
    id: `key_test${n}`,
    name: `test ${n}`,
    planId: 'free',
    autoStore: false,
    keyHash: String(n).padStart(64, 'a'),
    createdAt: at,
    updatedAt: at,
    revokedAt: null,
    ...overrides,
  };
}

/** A process id that is not running (the highest pid Linux hands out, minus one, is almost never in use). */
const DEAD_PID = 4_194_303;

test('a store whose temporary file was left half-written by a crash still loads, and writes again', async (t) => {
  const dir = await tempDir(t);
  const keys = await KeysStore.open(dir);
  await keys.insert(keyRecord(1));
  const leftovers = [`.keys.json.${DEAD_PID}-1.tmp`, '.keys.json.tmp'];
  for (const name of leftovers) await writeFile(path.join(dir, name), '{"keys": [{"id": "key_half", "na');
  const reopened = await KeysStore.open(dir);
  assert.deepEqual(
    (await reopened.list()).map((record) => record.id),
    ['key_test1'],
  );
  await reopened.insert(keyRecord(2));
  assert.deepEqual(
    JSON.parse(await readFile(path.join(dir, 'keys.json'), 'utf8')).keys.map((record: KeyRecord) => record.id),
    ['key_test1', 'key_test2'],
  );
  const names = await readdir(dir);
  assert.ok(!names.includes(leftovers[0]!), 'the dead process’s temporary file is removed');
});

test('a usage file half-written by a crash leaves the last complete count', async (t) => {
  const dir = await tempDir(t);
  const usage = new UsageStore(dir);
  const file = await usage.open('key_a', '2026-05');
  await file.save(7, new Date());
  await writeFile(path.join(dir, 'usage', 'key_a', `.2026-05.json.${DEAD_PID}-9.tmp`), '{"account_id":"key_a","month":"2026-05","us');
  assert.equal((await new UsageStore(dir).open('key_a', '2026-05')).used, 7);
});

test('writes replace the file whole and resolve once their data, or newer, is on disk', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'counter.json');
  const adapter = new JsonFile<{ n: number }>(file, () => undefined);
  const writes = Array.from({ length: 50 }, (_, n) => adapter.write({ n }).then(async () => JSON.parse(await readFile(file, 'utf8')).n as number));
  const seen = await Promise.all(writes);
  for (const [n, onDisk] of seen.entries()) assert.ok(onDisk >= n, `write ${n} resolved while the file held ${onDisk}`);
  assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), { n: 49 });
  assert.equal((await stat(file)).mode & 0o777, 0o600);
  assert.deepEqual(
    (await readdir(dir)).filter((name) => name.endsWith('.tmp')),
    [],
  );
});

test('a store file that is not JSON, or not a keys file, is refused with its name and left as it was', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'keys.json');
  for (const text of ['{"keys": [', 'null', '{"keys": [{"id": "key_a"}]}']) {
    await writeFile(file, text);
    await assert.rejects(KeysStore.open(dir), (error: unknown) => error instanceof StoreReadError && error.file === file && error.message.includes(file), text);
    assert.equal(await readFile(file, 'utf8'), text, 'the damaged file is untouched');
  }
});

test('a key change is applied only once it is on disk: a failed write changes nothing', async (t) => {
  const dir = await tempDir(t);
  const keys = await KeysStore.open(dir);
  await keys.insert(keyRecord(1));
  // keys.json turned into a non-empty folder: the rename over it fails, as a full disk would fail the write.
  const file = path.join(dir, 'keys.json');
  const saved = await readFile(file, 'utf8');
  await rm(file);
  await mkdir(path.join(file, 'x'), { recursive: true });
  await assert.rejects(keys.update('key_test1', { keyHash: 'b'.repeat(64) }));
  assert.equal((await keys.findByHash(keyRecord(1).keyHash!))?.id, 'key_test1', 'the old secret still works');
  assert.equal(await keys.findByHash('b'.repeat(64)), undefined, 'the new one does not');
  await rm(file, { recursive: true });
  await writeFile(file, saved);
  assert.equal((await keys.update('key_test1', { name: 'renamed' }))?.keyHash, keyRecord(1).keyHash, 'the next change builds on the old state');
});

test('keys are paged newest first behind a cursor', async (t) => {
  const dir = await tempDir(t);
  const keys = await KeysStore.open(dir);
  await keys.insert(...Array.from({ length: 5 }, (_, n) => keyRecord(n, { createdAt: `2026-05-0${n + 1}T00:00:00.000Z` })));
  await keys.update('key_test2', { keyHash: null, revokedAt: '2026-05-09T00:00:00.000Z' });
  const first = await keys.page(2, undefined);
  assert.deepEqual(
    first.items.map((record) => record.id),
    ['key_test4', 'key_test3'],
  );
  const second = await keys.page(2, first.nextCursor!);
  assert.deepEqual(
    second.items.map((record) => record.id),
    ['key_test1', 'key_test0'],
  );
  assert.equal(second.nextCursor, null);
});

/** Runs the crash writer until it has acknowledged some writes, kills it with SIGKILL, returns the last acknowledgement. */
async function crashWriter(dir: string, kind: 'usage' | 'keys', acknowledgements: number): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '..', '..', 'fixtures', 'store-crash-writer.ts'), dir, kind], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let last = 0;
  let buffered = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the writer acknowledged only ${last} writes`)), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      if (lines.length > 0) last = Number(lines.at(-1));
      if (last >= acknowledgements && child.exitCode === null && !child.killed) {
        child.kill('SIGKILL');
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  if (child.exitCode === null && !child.killed) child.kill('SIGKILL');
  await exited;
  return last;
}

test('kill -9 in the middle of a stream of usage writes leaves valid JSON with every acknowledged count', async (t) => {
  const dir = await tempDir(t);
  for (const stopAfter of [40, 150]) {
    const acknowledged = await crashWriter(dir, 'usage', stopAfter);
    const text = await readFile(path.join(dir, 'usage', 'key_crash', '2026-05.json'), 'utf8');
    const onDisk = JSON.parse(text) as { used: number };
    assert.ok(onDisk.used >= acknowledged, `acknowledged ${acknowledged}, file says ${onDisk.used}`);
    assert.equal((await new UsageStore(dir).open('key_crash', '2026-05')).used, onDisk.used);
  }
});

test('kill -9 in the middle of a stream of key writes leaves valid JSON with every acknowledged key', async (t) => {
  const dir = await tempDir(t);
  await mkdir(dir, { recursive: true });
  const acknowledged = await crashWriter(dir, 'keys', 60);
  const onDisk = JSON.parse(await readFile(path.join(dir, 'keys.json'), 'utf8')) as { keys: KeyRecord[] };
  assert.ok(onDisk.keys.length >= acknowledged, `acknowledged ${acknowledged}, file has ${onDisk.keys.length}`);
  const reopened = await KeysStore.open(dir);
  await reopened.insert(keyRecord(9999));
  assert.equal((await reopened.list()).length, onDisk.keys.length + 1);
});

test('DATA_DIR has one owner: a second lock refuses naming the folder and pid; a dead holder’s lock is taken over', async (t) => {
  const { lockDataDir, DataDirLockedError } = await import('../../../server/src/stores/data-dir-lock.ts');
  const dir = await tempDir(t);
  const first = await lockDataDir(dir, 'server');
  await first.setUrl('http://127.0.0.1:1');
  await assert.rejects(
    lockDataDir(dir, 'cli'),
    (error: unknown) => error instanceof DataDirLockedError && error.message.includes(dir) && error.message.includes(`pid ${process.pid}`),
  );
  await first.release();
  const second = await lockDataDir(dir, 'cli');
  await second.release();
  // What a kill -9 leaves: a lock naming a process that is gone, or this pid with another start time.
  for (const stale of [
    { pid: DEAD_PID, started: '1' },
    { pid: process.pid, started: 'another-start' },
  ]) {
    await writeFile(path.join(dir, 'quire.lock'), JSON.stringify({ ...stale, role: 'server', url: null, token: 'old' }));
    const taken = await lockDataDir(dir, 'server');
    assert.equal(JSON.parse(await readFile(path.join(dir, 'quire.lock'), 'utf8')).pid, process.pid);
    await taken.release();
  }
  assert.deepEqual(
    (await readdir(dir)).filter((name) => name.startsWith('quire.lock')),
    [],
  );
});
