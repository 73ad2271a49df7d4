// Retention is real: past its plan's retention a document answers 410 document_expired and its
// bytes are gone from disk, deleted by the sweeper (on its schedule and at start-up) or on the
// spot by a fetch; the 410 survives restarts until the tombstone ends; a plan change does not
// move the expiry of documents already stored. Time is a test clock, never a wait for retention.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bearer, errorOf, oneInstanceOnly, startTestServer, twoInstances, type IssuedKey, type TestServer } from '../helpers/start-app.ts';
import { DAY, HOUR, planWithRetention, testClock, writePlansFile, type TestClock } from '../helpers/test-plans.ts';
import { waitFor } from '../helpers/wait-for.ts';

const LOAD = { wait_until: 'load' };

async function store(server: TestServer, key: IssuedKey, html = '<p>kept for a while</p>'): Promise<string> {
  const response = await server.render({ html, store: true, options: LOAD }, bearer(key));
  assert.equal(response.status, 200, await response.clone().text());
  return response.headers.get('x-document-id')!;
}

function pdfFile(server: TestServer, key: IssuedKey, id: string): string {
  return path.join(server.dataDir, 'documents', key.id, `${id}.pdf`);
}

async function exists(file: string): Promise<boolean> {
  return readFile(file).then(
    () => true,
    () => false,
  );
}

/** Until the file is gone (the sweeper runs every second in these tests); the deadline is for a loaded machine. */
function waitUntilGone(file: string): Promise<void> {
  return waitFor(async () => !(await exists(file)), `the sweeper to delete ${file}`, 90_000);
}

async function statusOf(server: TestServer, key: IssuedKey, id: string): Promise<[number, string | undefined]> {
  const response = await server.request('GET', `/v1/documents/${id}`, undefined, bearer(key));
  if (response.status === 200) {
    await response.arrayBuffer();
    return [200, undefined];
  }
  return [response.status, (await errorOf(response)).code];
}

async function sharedDataDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-retention-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function plans(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  return writePlansFile(t, [planWithRetention('hourly', '1h'), planWithRetention('monthly', '30d')]);
}

test('past its retention a document answers 410 document_expired, its bytes gone from disk, and it is no longer listed', { timeout: 120_000 }, async (t) => {
  const clock = testClock();
  const server = await startTestServer(t, { plansFile: await plans(t) }, { now: clock.now });
  const key = await server.createKey('hourly');
  const id = await store(server, key);
  const listed = (await (await server.request('GET', '/v1/documents', undefined, bearer(key))).json()) as {
    data: { expires_at: string; created_at: string }[];
  };
  assert.equal(Date.parse(listed.data[0]!.expires_at) - Date.parse(listed.data[0]!.created_at), HOUR);

  clock.advance(HOUR - 1000);
  assert.deepEqual(await statusOf(server, key, id), [200, undefined], 'still within retention');
  clock.advance(1000);
  assert.deepEqual(await statusOf(server, key, id), [410, 'document_expired']);
  assert.equal(await exists(pdfFile(server, key, id)), false, 'the 410 comes after the bytes are deleted');
  assert.match((await errorOf(await server.request('GET', `/v1/documents/${id}`, undefined, bearer(key)))).detail, /retention period ended/);
  assert.deepEqual(await statusOf(server, key, id), [410, 'document_expired'], 'and stays 410');
  assert.equal((await errorOf(await server.request('DELETE', `/v1/documents/${id}`, undefined, bearer(key)))).code, 'document_expired');
  const after = (await (await server.request('GET', '/v1/documents', undefined, bearer(key))).json()) as { data: unknown[] };
  assert.deepEqual(after.data, []);
  // Another key still gets 404, not 410: an expired document does not reveal that it existed.
  assert.deepEqual(await statusOf(server, server.key, id), [404, 'document_not_found']);
});

test('the sweeper deletes expired bytes on its schedule, without any fetch', {
  timeout: 120_000,
  ...oneInstanceOnly('reads the DATA_DIR sidecars'),
}, async (t) => {
  const clock = testClock();
  const server = await startTestServer(t, { plansFile: await plans(t), retentionSweepSeconds: 1 }, { now: clock.now });
  const key = await server.createKey('hourly');
  const keeper = await server.createKey('monthly');
  const expiring = await store(server, key);
  const staying = await store(server, keeper);
  clock.advance(HOUR + 1000);
  await waitUntilGone(pdfFile(server, key, expiring));
  const sidecar = JSON.parse(await readFile(path.join(server.dataDir, 'documents', key.id, `${expiring}.json`), 'utf8')) as {
    state: string;
    expiredAt: string;
  };
  assert.equal(sidecar.state, 'expired', 'a tombstone is kept');
  assert.equal(sidecar.expiredAt, clock.now().toISOString());
  assert.deepEqual(await statusOf(server, key, expiring), [410, 'document_expired']);
  assert.equal(await exists(pdfFile(server, keeper, staying)), true, 'a document within its retention is untouched');
  assert.deepEqual(await statusOf(server, keeper, staying), [200, undefined]);
});

test('the 410 survives restarts; documents that expired while the server was down are swept at start-up; tombstones end after TOMBSTONE_DAYS', {
  timeout: 120_000,
}, async (t) => {
  const clock = testClock();
  const dataDir = await sharedDataDir(t);
  const plansFile = await plans(t);
  const config = { dataDir, plansFile, tombstoneDays: 7 };
  const first = await startTestServer(t, config, { now: clock.now });
  const key = await first.createKey('hourly');
  const fetchedExpired = await store(first, key);
  const sweptAtStartUp = await store(first, key);
  clock.advance(2 * HOUR);
  assert.deepEqual(await statusOf(first, key, fetchedExpired), [410, 'document_expired']);
  await first.app.close();

  const second = await startTestServer(t, config, { now: clock.now });
  if (!twoInstances) assert.equal(await exists(pdfFile(second, key, sweptAtStartUp)), false, 'swept before the server answered anything');
  assert.deepEqual(await statusOf(second, key, fetchedExpired), [410, 'document_expired']);
  assert.deepEqual(await statusOf(second, key, sweptAtStartUp), [410, 'document_expired']);
  await second.app.close();

  clock.advance(7 * DAY);
  const third = await startTestServer(t, config, { now: clock.now });
  for (const id of [fetchedExpired, sweptAtStartUp]) assert.deepEqual(await statusOf(third, key, id), [404, 'document_not_found'], 'the tombstone has ended');
  if (!twoInstances) assert.deepEqual(await readdir(path.join(dataDir, 'documents', key.id)), []);
});

test('a document keeps the retention it was stored under when its key changes plan', { timeout: 120_000 }, async (t) => {
  const clock: TestClock = testClock();
  const server = await startTestServer(t, { plansFile: await plans(t) }, { now: clock.now });
  const upgraded = await server.createKey('hourly');
  const storedShort = await store(server, upgraded);
  assert.equal((await server.admin('PATCH', `/admin/v1/keys/${upgraded.id}`, { plan: 'monthly' })).status, 200);
  const storedLong = await store(server, upgraded);

  const downgraded = await server.createKey('monthly');
  const storedBeforeDowngrade = await store(server, downgraded);
  assert.equal((await server.admin('PATCH', `/admin/v1/keys/${downgraded.id}`, { plan: 'hourly' })).status, 200);

  clock.advance(2 * HOUR);
  assert.deepEqual(await statusOf(server, upgraded, storedShort), [410, 'document_expired'], 'stored under 1h: gone although the plan now keeps 30 days');
  assert.deepEqual(await statusOf(server, upgraded, storedLong), [200, undefined]);
  assert.deepEqual(await statusOf(server, downgraded, storedBeforeDowngrade), [200, undefined], 'stored under 30d: kept although the plan now keeps 1 hour');
});

test('a revoked key’s documents stay reachable to the admin until their retention ends', { timeout: 120_000 }, async (t) => {
  const clock = testClock();
  const server = await startTestServer(t, { plansFile: await plans(t) }, { now: clock.now });
  const key = await server.createKey('hourly');
  const id = await store(server, key);
  assert.equal((await server.admin('DELETE', `/admin/v1/keys/${key.id}`)).status, 204);
  const listed = (await (await server.admin('GET', `/admin/v1/documents?key_id=${key.id}`)).json()) as { data: { id: string }[] };
  assert.deepEqual(
    listed.data.map((document) => document.id),
    [id],
  );
  const fetched = await server.admin('GET', `/admin/v1/documents/${id}`);
  assert.equal(fetched.status, 200);
  assert.equal(
    Buffer.from(await fetched.arrayBuffer())
      .subarray(0, 5)
      .toString(),
    '%PDF-',
  );
  clock.advance(HOUR);
  const expired = await errorOf(await server.admin('GET', `/admin/v1/documents/${id}`));
  assert.deepEqual([expired.status, expired.code], [410, 'document_expired']);
});
