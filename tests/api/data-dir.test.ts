// The single-machine store as a user meets it (issue 12): one owner per DATA_DIR, keys paged with
// usage, one damaged usage file failing only its key, and a full disk answering 507 with nothing
// half-applied.
// test-lane: own-server (reads and damages its DATA_DIR).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bearer, errorOf, startTestServer } from '../helpers/start-app.ts';
import { runServerProcess } from '../helpers/server-process.ts';

const HTML = { html: '<p>data dir</p>', options: { wait_until: 'load' } };

test('a second server on the same DATA_DIR refuses, naming the folder and the pid, and exits non-zero', { timeout: 120_000 }, async (t) => {
  const server = await startTestServer(t);
  const second = await runServerProcess({ DATA_DIR: server.dataDir, ADMIN_TOKEN: 'adm_second_server_000000000000' });
  assert.notEqual(second.code, 0);
  assert.ok(second.stderr.includes(`${server.dataDir} is in use by another Quire server (pid ${process.pid}`), second.stderr);
  assert.equal((await server.render(HTML)).status, 200, 'the first server is unharmed');
});

test('a damaged store file stops start-up naming the file and what is wrong, and is left exactly as it was', { timeout: 120_000 }, async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-damaged-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const cases: [string, string, RegExp][] = [
    ['keys.json', 'null', /expected \{"keys": \[\.\.\.\]\}, found null/],
    [path.join('documents', 'key_a', 'doc_b.json'), '{"id": "doc_b", "keyI', /not valid JSON|JSON/],
  ];
  for (const [relative, text, problem] of cases) {
    const file = path.join(dataDir, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    const started = await runServerProcess({ DATA_DIR: dataDir, ADMIN_TOKEN: 'adm_damaged_files_00000000000000' });
    assert.notEqual(started.code, 0);
    assert.ok(started.stderr.includes(`${file} is damaged`), started.stderr);
    assert.match(started.stderr, problem);
    assert.equal(await readFile(file, 'utf8'), text, 'left exactly as it was');
    await rm(file);
  }
});

test('GET /admin/v1/keys pages newest first with limit and cursor; a bad cursor is a 400', { timeout: 120_000 }, async (t) => {
  const server = await startTestServer(t);
  for (let n = 0; n < 4; n++) await server.createKey('free', { name: `paged ${n}` });
  const first = (await (await server.admin('GET', '/admin/v1/keys?limit=2')).json()) as { data: { name: string }[]; next_cursor: string | null };
  assert.deepEqual(
    first.data.map((key) => key.name),
    ['paged 3', 'paged 2'],
  );
  const rest = (await (await server.admin('GET', `/admin/v1/keys?limit=100&cursor=${first.next_cursor}`)).json()) as {
    data: { name: string }[];
    next_cursor: string | null;
  };
  assert.deepEqual(
    rest.data.map((key) => key.name),
    ['paged 1', 'paged 0', 'default test key'],
  );
  assert.equal(rest.next_cursor, null);
  for (const query of ['?limit=0', '?limit=101', '?cursor=not-ours']) {
    const error = await errorOf(await server.admin('GET', `/admin/v1/keys${query}`));
    assert.deepEqual([error.status, error.code], [400, 'invalid_request'], query);
  }
});

test('a damaged usage file fails only its key’s calls; the key list still answers, showing no count for it', { timeout: 120_000 }, async (t) => {
  const server = await startTestServer(t);
  const damaged = await server.createKey('business', { name: 'damaged' });
  const file = path.join(server.dataDir, 'usage', damaged.id, `${new Date().toISOString().slice(0, 7)}.json`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, 'null');
  const refused = await errorOf(await server.render(HTML, bearer(damaged)));
  assert.deepEqual([refused.status, refused.code], [500, 'internal_error']);
  assert.equal((await server.render(HTML)).status, 200, 'another key renders');
  const list = (await (await server.admin('GET', '/admin/v1/keys')).json()) as { data: { id: string; usage: { used: number | null } }[] };
  assert.equal(list.data.find((key) => key.id === damaged.id)?.usage.used, null);
  assert.equal(list.data.find((key) => key.id === server.key.id)?.usage.used, 1);
});

test('a full disk answers 507 insufficient_storage and changes nothing: the old key keeps working, nothing is stored or charged', {
  timeout: 180_000,
}, async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', dataDir], { stdio: 'ignore' });
  } catch {
    await rm(dataDir, { recursive: true, force: true });
    t.skip('skipped: mounting a small tmpfs needs root (the disk-full path is also covered by unit tests)');
    return;
  }
  t.after(async () => {
    execFileSync('umount', ['-l', dataDir]);
    await rm(dataDir, { recursive: true, force: true });
  });
  const server = await startTestServer(t, { dataDir });
  const before = (await (await server.admin('GET', '/admin/v1/keys')).json()) as { data: { id: string; usage: { used: number } }[] };
  // Fill what is left of the disk.
  const filler = await open(path.join(dataDir, 'filler'), 'w');
  const block = Buffer.alloc(1024 * 1024);
  try {
    for (;;) await filler.write(block);
  } catch {
    for (let size = 64 * 1024; size >= 1; size = Math.floor(size / 2)) await filler.write(Buffer.alloc(size)).catch(() => undefined);
  }
  await filler.close();
  const rotate = await errorOf(await server.admin('POST', `/admin/v1/keys/${server.key.id}/rotate`));
  assert.deepEqual([rotate.status, rotate.code], [507, 'insufficient_storage']);
  const create = await errorOf(await server.admin('POST', '/admin/v1/keys', { name: 'new', plan: 'free' }));
  assert.deepEqual([create.status, create.code], [507, 'insufficient_storage']);
  const stored = await errorOf(await server.render({ ...HTML, store: true }));
  assert.deepEqual([stored.status, stored.code], [507, 'insufficient_storage'], 'a render whose copy cannot be kept fails, uncharged');
  const documents = (await (await server.request('GET', '/v1/documents')).json()) as { data: unknown[] };
  assert.deepEqual(documents.data, [], 'the old key still works, and nothing was stored');
  const after = (await (await server.admin('GET', '/admin/v1/keys')).json()) as { data: { id: string; usage: { used: number } }[] };
  assert.deepEqual(after.data, before.data, 'no key was added or changed');
  await rm(path.join(dataDir, 'filler'));
  assert.equal((await server.admin('POST', `/admin/v1/keys/${server.key.id}/rotate`)).status, 200, 'with space again, the same call works');
});
