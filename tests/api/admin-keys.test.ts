// test-lane: own-server (reads keys.json in DATA_DIR and restarts on it).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { bearer, errorOf, oneInstanceOnly, startTestServer, twoInstances, type IssuedKey } from '../helpers/start-app.ts';

const HTML = { html: '<p>admin</p>', options: { wait_until: 'load' } };

test('POST /admin/v1/keys issues a key shown once and stored only as a hash', async (t) => {
  const server = await startTestServer(t);
  const response = await server.admin('POST', '/admin/v1/keys', { name: 'Acme', plan: 'starter', auto_store: true });
  assert.equal(response.status, 201);
  const issued = (await response.json()) as IssuedKey;
  assert.deepEqual(Object.keys(issued).sort(), ['auto_store', 'created_at', 'id', 'key', 'name', 'plan', 'receipts']);
  assert.equal(issued.receipts, 'stored', 'receipts are kept for stored renders by default');
  assert.match(issued.id, /^key_[0-9A-Za-z]{16}$/);
  assert.match(issued.key, /^sk_live_[0-9A-Za-z]{43}$/);
  assert.equal(issued.name, 'Acme');
  assert.equal(issued.plan, 'starter');
  assert.equal(issued.auto_store, true);
  assert.ok(!Number.isNaN(Date.parse(issued.created_at)));

  const listed = (await (await server.admin('GET', '/admin/v1/keys')).json()) as { data: Record<string, unknown>[] };
  const entry = listed.data.find((key) => key.id === issued.id)!;
  assert.deepEqual(entry, {
    id: issued.id,
    name: 'Acme',
    plan: 'starter',
    auto_store: true,
    receipts: 'stored',
    created_at: issued.created_at,
    usage: { month: new Date().toISOString().slice(0, 7), used: 0, limit: 1000 },
  });
  assert.ok(!JSON.stringify(listed).includes('sk_live_'), 'the list never shows a key');

  // The two-instance lane keeps keys in PostgreSQL (tests/stores/keys.test.ts checks only hashes are stored there).
  if (!twoInstances) {
    const stored = await readFile(path.join(server.dataDir, 'keys.json'), 'utf8');
    assert.ok(!stored.includes(issued.key) && !stored.includes(issued.key.slice(8)), 'keys.json holds no key');
    assert.equal((await stat(path.join(server.dataDir, 'keys.json'))).mode & 0o777, 0o600);
  }
  assert.equal((await server.render(HTML, bearer(issued))).status, 200);
});

test('POST /admin/v1/keys refuses an unknown plan or a bad body with 400 naming the field', async (t) => {
  const server = await startTestServer(t);
  const cases: [unknown, RegExp][] = [
    [{ name: 'x', plan: 'gold' }, /plan must be one of free, starter, growth, scale, business \(got "gold"\)/],
    [{ plan: 'free' }, /name is required/],
    [{ name: '', plan: 'free' }, /name must not be empty/],
    [{ name: 'x', plan: 'free', auto_store: 'yes' }, /auto_store must be a boolean/],
    [{ name: 'x', plan: 'free', key: 'sk_live_mine' }, /key is not a known field/],
  ];
  for (const [body, detail] of cases) {
    const error = await errorOf(await server.admin('POST', '/admin/v1/keys', body));
    assert.equal(error.code, 'invalid_request', JSON.stringify(body));
    assert.match(error.detail, detail);
  }
  assert.equal(
    (
      await errorOf(
        await server.requestWithoutKey('POST', '/admin/v1/keys', '{"name":', {
          authorization: `Bearer ${server.adminToken}`,
          'content-type': 'application/json',
        }),
      )
    ).code,
    'invalid_json',
  );
});

test('PATCH /admin/v1/keys/:id changes name, plan and auto_store, effective on the next request', async (t) => {
  const server = await startTestServer(t);
  const key = await server.createKey('free', { name: 'before' });
  const response = await server.admin('PATCH', `/admin/v1/keys/${key.id}`, { name: 'after', plan: 'growth', auto_store: true });
  assert.equal(response.status, 200);
  const record = (await response.json()) as Record<string, unknown>;
  assert.deepEqual(
    { ...record, usage: undefined },
    { id: key.id, name: 'after', plan: 'growth', auto_store: true, receipts: 'stored', created_at: key.created_at, usage: undefined },
  );
  assert.equal((record.usage as { limit: number }).limit, 10_000);
  const rendered = await server.render(HTML, bearer(key));
  assert.equal(rendered.headers.get('x-service-plan'), 'growth');
  assert.equal(rendered.headers.get('x-service-limit'), '10000');

  assert.match((await errorOf(await server.admin('PATCH', `/admin/v1/keys/${key.id}`, { plan: 'gold' }))).detail, /plan must be one of/);
  assert.match((await errorOf(await server.admin('PATCH', `/admin/v1/keys/${key.id}`, {}))).detail, /at least one of name, plan, auto_store/);
  const unknown = await errorOf(await server.admin('PATCH', '/admin/v1/keys/key_nope', { name: 'x' }));
  assert.deepEqual([unknown.status, unknown.code], [404, 'not_found']);
});

test('POST /admin/v1/keys/:id/rotate: the old key stops working at once, the new one keeps the id, plan and usage', async (t) => {
  const server = await startTestServer(t);
  const key = await server.createKey('starter');
  assert.equal((await server.render(HTML, bearer(key))).status, 200);
  const response = await server.admin('POST', `/admin/v1/keys/${key.id}/rotate`);
  assert.equal(response.status, 200);
  const rotated = (await response.json()) as IssuedKey;
  assert.equal(rotated.id, key.id);
  assert.equal(rotated.plan, 'starter');
  assert.notEqual(rotated.key, key.key);
  assert.match(rotated.key, /^sk_live_[0-9A-Za-z]{43}$/);
  assert.equal((await errorOf(await server.render(HTML, bearer(key)))).code, 'unauthorized');
  const rendered = await server.render(HTML, bearer(rotated));
  assert.equal(rendered.status, 200);
  assert.equal(rendered.headers.get('x-service-usage'), '2', 'usage stays with the key id');
});

test('DELETE /admin/v1/keys/:id revokes the key at once; the id is gone from the list and cannot come back', async (t) => {
  const server = await startTestServer(t);
  const key = await server.createKey('starter');
  assert.equal((await server.render(HTML, bearer(key))).status, 200);
  const response = await server.admin('DELETE', `/admin/v1/keys/${key.id}`);
  assert.equal(response.status, 204);
  assert.equal(await response.text(), '');
  assert.equal((await errorOf(await server.render(HTML, bearer(key)))).code, 'unauthorized');
  const listed = (await (await server.admin('GET', '/admin/v1/keys')).json()) as { data: { id: string }[] };
  assert.ok(!listed.data.some((entry) => entry.id === key.id));
  for (const [method, route] of [
    ['DELETE', `/admin/v1/keys/${key.id}`],
    ['POST', `/admin/v1/keys/${key.id}/rotate`],
    ['GET', `/admin/v1/keys/${key.id}`],
  ] as const) {
    assert.equal((await errorOf(await server.admin(method, route))).code, 'not_found', `${method} ${route}`);
  }
  assert.equal((await errorOf(await server.admin('PATCH', `/admin/v1/keys/${key.id}`, { name: 'x' }))).code, 'not_found');
});

test('GET /admin/v1/plans lists the plans in the PLANS_FILE form', async (t) => {
  const server = await startTestServer(t);
  const plans = (await (await server.admin('GET', '/admin/v1/plans')).json()) as { data: unknown[] };
  assert.deepEqual(plans.data[0], { id: 'free', name: 'Free', monthly_documents: 100, retention: '1d', batch_max_items: 0, concurrency: 1 });
  assert.equal(plans.data.length, 5);
});

test(
  'without ADMIN_TOKEN the token is generated once into DATA_DIR/admin-token (0600) and kept across restarts',
  oneInstanceOnly('a generated token differs per DATA_DIR'),
  async (t) => {
    const first = await startTestServer(t, { adminToken: '' });
    const file = path.join(first.dataDir, 'admin-token');
    assert.equal((await readFile(file, 'utf8')).trim(), first.adminToken);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.match(first.adminToken, /^adm_[0-9A-Za-z]{43}$/);
    assert.equal((await first.admin('GET', '/admin/v1/plans')).status, 200);
    await first.app.close();
    const second = await startTestServer(t, { adminToken: '', dataDir: first.dataDir });
    assert.equal(second.adminToken, first.adminToken);
    assert.equal((await second.requestWithoutKey('GET', '/admin/v1/keys', undefined, bearer(first.adminToken))).status, 200);
    assert.equal((await second.render(HTML, bearer(first.key))).status, 200, 'keys survive a restart');
  },
);
