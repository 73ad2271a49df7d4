import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServerProcess, runServerProcess, type ServerProcess } from '../helpers/server-process.ts';

const ADMIN_TOKEN = 'adm_crash_test_token_0123456789';
const HTML = JSON.stringify({ html: '<p>crash</p>', options: { wait_until: 'load' } });

async function tempDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-process-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function call(server: ServerProcess, method: string, route: string, token: string, body?: string): Promise<Response> {
  return fetch(server.url + route, { method, body, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) } });
}

/** Every JSON file under dir parses. */
async function assertAllJsonParses(dir: string): Promise<number> {
  let count = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
    JSON.parse(await readFile(path.join(entry.parentPath, entry.name), 'utf8'));
    count++;
  }
  return count;
}

test('a new key, a rotation and a usage count survive kill -9 right after the response', async (t) => {
  const dataDir = await tempDir(t);
  const env = { DATA_DIR: dataDir, ADMIN_TOKEN };
  const running: ServerProcess[] = [];
  t.after(() => Promise.all(running.map((server) => server.crash())).then(() => undefined));
  const start = async () => {
    const server = await startServerProcess(env);
    running.push(server);
    return server;
  };

  let server = await start();
  const created = await call(server, 'POST', '/admin/v1/keys', ADMIN_TOKEN, JSON.stringify({ name: 'crash', plan: 'starter' }));
  assert.equal(created.status, 201);
  const issued = (await created.json()) as { id: string; key: string };
  await server.crash();

  server = await start();
  const first = await call(server, 'POST', '/v1/pdf', issued.key, HTML);
  assert.equal(first.status, 200);
  assert.equal(first.headers.get('x-service-usage'), '1');
  await server.crash();

  server = await start();
  const second = await call(server, 'POST', '/v1/pdf', issued.key, HTML);
  assert.equal(second.headers.get('x-service-usage'), '2');
  const rotated = (await (await call(server, 'POST', `/admin/v1/keys/${issued.id}/rotate`, ADMIN_TOKEN)).json()) as { key: string };
  await server.crash();

  server = await start();
  assert.equal((await call(server, 'POST', '/v1/pdf', issued.key, HTML)).status, 401, 'the rotated-away key stays dead');
  const listed = (await (await call(server, 'GET', `/admin/v1/keys/${issued.id}`, ADMIN_TOKEN)).json()) as { usage: { used: number } };
  assert.equal(listed.usage.used, 2, 'usage is what was answered');
  const third = await call(server, 'POST', '/v1/pdf', rotated.key, HTML);
  assert.equal(third.headers.get('x-service-usage'), '3');
  await server.crash();

  assert.ok((await assertAllJsonParses(dataDir)) >= 2);
});

test('a bad PLANS_FILE stops start-up with one line naming the file, the entry and the field', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'plans.json');
  await writeFile(
    file,
    JSON.stringify([
      { id: 'gold', name: 'Gold', monthly_documents: 5, retention: '1d', batch_max_items: 0 },
      { id: 'silver', name: 'Silver', monthly_documents: 5, retention: '1 week', batch_max_items: 0 },
    ]),
  );
  const result = await runServerProcess({ DATA_DIR: dir, PLANS_FILE: file, ADMIN_TOKEN });
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr,
    `quire: PLANS_FILE ${file}: entry 1 (id "silver"): retention must be 0 or a string such as "30d" (a number with s, m, h, d or y) (got "1 week")\n`,
  );
  assert.ok(!result.stdout.includes('browser launched'), 'refused before Chromium starts');
});

test('an ADMIN_TOKEN that looks like an API key, or is short, stops start-up', async (t) => {
  const dir = await tempDir(t);
  for (const token of ['sk_live_0123456789abcdefghij', 'short']) {
    const result = await runServerProcess({ DATA_DIR: dir, ADMIN_TOKEN: token });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^quire: ADMIN_TOKEN must/);
  }
});
