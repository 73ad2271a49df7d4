// test-lane: own-server (reads its DATA_DIR and restarts on it).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { bearer, errorOf, startTestServer, type IssuedKey, type TestServer } from '../helpers/start-app.ts';

const HTML = { html: '<p>metered</p>', options: { wait_until: 'load' } };

/** A PLANS_FILE with small plans, so limits are reached in a few renders. */
async function plansFile(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-plans-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'plans.json');
  await writeFile(
    file,
    JSON.stringify([
      { id: 'ten', name: 'Ten', monthly_documents: 10, retention: '1d', batch_max_items: 0 },
      { id: 'two', name: 'Two', monthly_documents: 2, retention: '1d', batch_max_items: 0 },
    ]),
  );
  return file;
}

function usageOf(response: Response): [string | null, string | null, string | null] {
  return [response.headers.get('x-service-usage'), response.headers.get('x-service-limit'), response.headers.get('x-service-plan')];
}

async function usedThisMonth(server: TestServer, key: IssuedKey): Promise<{ month: string; used: number; limit: number }> {
  return ((await (await server.admin('GET', `/admin/v1/keys/${key.id}`)).json()) as { usage: { month: string; used: number; limit: number } }).usage;
}

test('every render response carries X-Service-Usage (this one included), X-Service-Limit and X-Service-Plan', async (t) => {
  const server = await startTestServer(t);
  const key = await server.createKey('starter');
  for (let used = 1; used <= 3; used++) {
    const response = await server.render(HTML, bearer(key));
    assert.equal(response.status, 200);
    assert.deepEqual(usageOf(response), [String(used), '1000', 'starter']);
  }
  assert.deepEqual(usageOf(await server.render(HTML)), ['1', '250000', 'business'], 'keys are counted apart');
});

test('a plan’s monthly allowance ends in 402 quota_exceeded with the usage headers and the allowance named, without rendering', async (t) => {
  const server = await startTestServer(t, { plansFile: await plansFile(t) });
  const key = await server.createKey('two');
  assert.deepEqual(usageOf(await server.render(HTML, bearer(key))), ['1', '2', 'two']);
  assert.deepEqual(usageOf(await server.render(HTML, bearer(key))), ['2', '2', 'two']);
  const rendersBefore = server.app.renderer.stats().rendersTotal;
  const refused = await server.render(HTML, bearer(key));
  assert.deepEqual(usageOf(refused), ['2', '2', 'two']);
  const error = await errorOf(refused);
  assert.deepEqual([error.status, error.code], [402, 'quota_exceeded']);
  assert.match(error.detail, /^The two plan's allowance of 2 documents a month is used up for \d{4}-\d{2}; it renews on \d{4}-\d{2}-01 \(UTC\)\.$/);
  assert.equal(server.app.renderer.stats().rendersTotal, rendersBefore);
  assert.equal((await usedThisMonth(server, key)).used, 2);

  const upgraded = await server.admin('PATCH', `/admin/v1/keys/${key.id}`, { plan: 'ten' });
  assert.equal(upgraded.status, 200);
  assert.deepEqual(usageOf(await server.render(HTML, bearer(key))), ['3', '10', 'ten'], 'a plan change counts from the next request, usage kept');
});

test('50 concurrent renders on a 10-document plan give exactly ten 200s and forty 402s', async (t) => {
  const server = await startTestServer(t, { plansFile: await plansFile(t) });
  const key = await server.createKey('ten');
  const responses = await Promise.all(Array.from({ length: 50 }, (_, n) => server.render({ ...HTML, html: `<p>race ${n}</p>` }, bearer(key))));
  const ok = responses.filter((response) => response.status === 200);
  const refused = responses.filter((response) => response.status === 402);
  assert.equal(ok.length, 10);
  assert.equal(refused.length, 40);
  assert.deepEqual(
    ok.map((response) => Number(response.headers.get('x-service-usage'))).sort((a, b) => a - b),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  );
  for (const response of refused) {
    assert.deepEqual(usageOf(response), ['10', '10', 'ten']);
    assert.equal((await errorOf(response)).code, 'quota_exceeded');
  }
  for (const response of ok)
    assert.equal(
      Buffer.from(await response.arrayBuffer())
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    );
  assert.equal((await usedThisMonth(server, key)).used, 10);
  const month = new Date().toISOString().slice(0, 7);
  const onDisk = JSON.parse(await readFile(path.join(server.dataDir, 'usage', key.id, `${month}.json`), 'utf8')) as { used: number };
  assert.equal(onDisk.used, 10);
});

test('a failed render (timeout, unreachable url, blocked url, bad request) is not charged', async (t) => {
  const broken = http.createServer((_req, res) => void res.writeHead(500).end('no'));
  await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        broken.closeAllConnections();
        broken.close(() => resolve());
      }),
  );
  const { port } = broken.address() as AddressInfo;
  const fixture = { url: `http://127.0.0.1:${port}` };
  const server = await startTestServer(t, { plansFile: await plansFile(t), allowHosts: [`127.0.0.1:${port}`] });
  const key = await server.createKey('two');
  const failures: [unknown, number, string][] = [
    [{ html: '<p>never ready</p>', options: { wait_for: '#never', timeout_ms: 1000, wait_until: 'load' } }, 504, 'render_timeout'],
    [{ url: `${fixture.url}/broken` }, 422, 'navigation_failed'],
    [{ url: 'http://169.254.169.254/latest/meta-data/' }, 400, 'url_blocked'],
    [{ html: '<p>x</p>', url: `${fixture.url}/broken` }, 400, 'conflicting_source'],
  ];
  for (const [body, status, code] of failures) {
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await errorOf(await server.render(body, bearer(key)));
      assert.deepEqual([error.status, error.code], [status, code], JSON.stringify(body));
    }
  }
  assert.equal((await usedThisMonth(server, key)).used, 0);
  assert.deepEqual(usageOf(await server.render(HTML, bearer(key))), ['1', '2', 'two'], 'the allowance is whole after eight failures');
});

test('usage restarts on the first day of the month (UTC), with the clock injected', async (t) => {
  let now = new Date('2026-01-31T23:59:00.000Z');
  const server = await startTestServer(t, { plansFile: await plansFile(t) }, { now: () => now });
  const key = await server.createKey('two');
  await server.render(HTML, bearer(key));
  await server.render(HTML, bearer(key));
  assert.equal((await server.render(HTML, bearer(key))).status, 402);
  assert.deepEqual(await usedThisMonth(server, key), { month: '2026-01', used: 2, limit: 2 });

  now = new Date('2026-02-01T00:00:00.000Z');
  assert.deepEqual(usageOf(await server.render(HTML, bearer(key))), ['1', '2', 'two']);
  assert.deepEqual(await usedThisMonth(server, key), { month: '2026-02', used: 1, limit: 2 });
  const january = JSON.parse(await readFile(path.join(server.dataDir, 'usage', key.id, '2026-01.json'), 'utf8')) as { used: number };
  const february = JSON.parse(await readFile(path.join(server.dataDir, 'usage', key.id, '2026-02.json'), 'utf8')) as { used: number };
  assert.deepEqual([january.used, february.used], [2, 1]);
});

test('a render rewrites only its own small usage file, never keys.json', async (t) => {
  const server = await startTestServer(t);
  for (let n = 0; n < 20; n++) await server.createKey('free');
  const keysFile = path.join(server.dataDir, 'keys.json');
  const before = await stat(keysFile);
  for (let n = 0; n < 3; n++) assert.equal((await server.render(HTML)).status, 200);
  const after = await stat(keysFile);
  assert.deepEqual([after.ino, after.mtimeMs, after.size], [before.ino, before.mtimeMs, before.size]);
  const month = new Date().toISOString().slice(0, 7);
  const usageFile = await readFile(path.join(server.dataDir, 'usage', server.key.id, `${month}.json`), 'utf8');
  assert.ok(usageFile.length < 200, `usage file is ${usageFile.length} bytes`);
});

test('usage survives a restart of the server', async (t) => {
  const first = await startTestServer(t, { plansFile: await plansFile(t) });
  const key = await first.createKey('two');
  assert.equal((await first.render(HTML, bearer(key))).status, 200);
  await first.app.close();
  const second = await startTestServer(t, { dataDir: first.dataDir, plansFile: first.app.config.plansFile });
  assert.deepEqual(usageOf(await second.render(HTML, bearer(key))), ['2', '2', 'two']);
  assert.equal((await second.render(HTML, bearer(key))).status, 402);
});

test('a key whose plan was dropped from PLANS_FILE gets 403 forbidden until the admin moves it to another plan', async (t) => {
  const first = await startTestServer(t, { plansFile: await plansFile(t) });
  const key = await first.createKey('two');
  await first.app.close();
  const second = await startTestServer(t, { dataDir: first.dataDir, plansFile: '' });
  const error = await errorOf(await second.render(HTML, bearer(key)));
  assert.deepEqual([error.status, error.code], [403, 'forbidden']);
  assert.doesNotMatch(error.detail, /two/, 'the caller is not told plan internals');
  assert.equal((await second.admin('PATCH', `/admin/v1/keys/${key.id}`, { plan: 'starter' })).status, 200);
  assert.deepEqual(usageOf(await second.render(HTML, bearer(key))), ['1', '1000', 'starter']);
});
