// One tenant can never hurt another (issue 11): anonymous playground calls cannot take every
// render slot, cheap refusals come before expensive work, hostile bodies are 4xx that the
// client can read and that charge and store nothing, the playground sees the client address
// TRUST_PROXY says, and a generated admin token never reaches the log. Real Chromium throughout.
// test-lane: own-server (reads the server-wide render slots).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { startTestServer, bearer, errorOf, oneInstanceOnly, type TestServer } from '../helpers/start-app.ts';
import { writePlansFile } from '../helpers/test-plans.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { sendRaw, writeChunked } from '../helpers/raw-request.ts';
import { waitFor } from '../helpers/wait-for.ts';

const LOAD = { wait_until: 'load' };

async function rendererState(server: TestServer): Promise<{ busy: number; queued: number }> {
  const health = (await (await fetch(`${server.url}/health`)).json()) as { renderer: { busy: number; queued: number } };
  return health.renderer;
}

test('anonymous wait_for "#never" playground calls cannot take every slot: a paid render still gets one', {
  timeout: 120_000,
  ...oneInstanceOnly('the render queue is per instance'),
}, async (t) => {
  // Issue 11's repro, with the playground's timeout cap lowered so the hogs end sooner.
  const server = await startTestServer(t, { renderConcurrency: 2, playgroundMaxTimeoutMs: 4000, playgroundRateLimit: 100 });
  const hog = { html: '<p>x', options: { wait_for: '#never', timeout_ms: 60_000 } };
  const hogs = Array.from({ length: 3 }, () =>
    server.requestWithoutKey('POST', '/v1/playground/pdf', hog).then(async (response) => ({ status: response.status, body: await response.text() })),
  );
  // The playground holds its one slot (the other hogs wait for that share, not for the server).
  await waitFor(async () => {
    const state = await rendererState(server);
    return state.busy === 1 && state.queued === 2;
  }, 'the playground render to hold its slot and two more to queue');
  const paid = await server.render({ html: '<h1>Paid render</h1>', options: LOAD });
  assert.equal(paid.status, 200, await paid.clone().text());
  assert.match((await inspectPdf(await paid.arrayBuffer())).text, /Paid render/);

  const answered = await Promise.all(hogs);
  const first = answered.find((answer) => answer.status === 504);
  assert.ok(first, `a hog ran and timed out: ${JSON.stringify(answered)}`);
  assert.match(first.body, /4000 ms/, 'timeout_ms 60000 was lowered to PLAYGROUND_MAX_TIMEOUT_MS');
  for (const answer of answered) assert.ok([503, 504].includes(answer.status), `a hog answers 504 or 503, never a PDF: ${answer.status}`);
});

test('a key past its allowance gets 402 before its template is looked up or expanded', { timeout: 60_000 }, async (t) => {
  const plansFile = await writePlansFile(t, [{ id: 'one', name: 'One', monthly_documents: 1, retention: '1d', batch_max_items: 0 }]);
  const server = await startTestServer(t, { plansFile });
  const key = await server.createKey('one');
  assert.equal((await server.render({ html: '<p>first</p>', options: LOAD }, bearer(key))).status, 200);
  // On the old order this was 404 template_not_found: the template was resolved before the quota.
  const refused = await errorOf(await server.render({ template_id: 'tpl_doesnotexist', data: { a: 1 } }, bearer(key)));
  assert.deepEqual([refused.status, refused.code], [402, 'quota_exceeded']);
});

test('a filename with a lone surrogate is refused before anything is charged or stored', { timeout: 60_000 }, async (t) => {
  const server = await startTestServer(t);
  const body = '{"html": "<p>x</p>", "filename": "\\ud800.pdf", "store": true}';
  const refused = await errorOf(await server.request('POST', '/v1/pdf', body, { 'content-type': 'application/json' }));
  assert.deepEqual([refused.status, refused.code], [400, 'invalid_request']);
  assert.match(refused.detail, /filename/);
  const documents = (await (await server.request('GET', '/v1/documents')).json()) as { data: unknown[] };
  assert.equal(documents.data.length, 0, 'nothing stored');
  const keys = (await (await server.admin('GET', '/admin/v1/keys')).json()) as { data: { id: string; usage: { used: number } }[] };
  assert.equal(keys.data.find((entry) => entry.id === server.key.id)!.usage.used, 0, 'nothing charged');
});

test('a 7 MB chunked body with no Content-Length gets a 413 the client can read, and the connection stays usable', { timeout: 60_000 }, async (t) => {
  const server = await startTestServer(t);
  const { port } = new URL(server.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.after(() => agent.destroy());
  // No Content-Length: node sends it chunked.
  const answer = await sendRaw(agent, port, 'POST', '/v1/pdf', { ...bearer(server.key), 'content-type': 'application/json' }, (req) =>
    writeChunked(req, 7, '{"html": "', '"}'),
  );
  assert.equal(answer.status, 413);
  assert.deepEqual(JSON.parse(answer.body).code, 'payload_too_large');
  // The rest of the body was read and dropped, so the same connection carries the next request
  // (before, the half-read body stayed in the way and the next request on it hung).
  const next = await sendRaw(agent, port, 'GET', '/health', {});
  assert.equal(next.status, 200);
  assert.equal(next.socket, answer.socket, 'the kept-alive connection was reused');
});

// In the two-instance lane too: the round-robin proxy in front is the one hop, and both instances
// count on the same PostgreSQL rows (stores/pg/rate-limits.ts), so the third call below is refused
// by the instance that has not seen that client before.
test('TRUST_PROXY decides which address the playground limit counts', { timeout: 90_000 }, async (t) => {
  const call = (server: TestServer, forwardedFor: string) =>
    server.requestWithoutKey('POST', '/v1/playground/pdf', { html: '<p>hi</p>', options: LOAD }, { 'x-forwarded-for': forwardedFor });

  await t.test('by default a forged X-Forwarded-For is ignored: one socket address, one allowance', async (t) => {
    const server = await startTestServer(t, { playgroundRateLimit: 1 });
    assert.equal((await call(server, '198.51.100.1')).status, 200);
    assert.equal((await call(server, '198.51.100.2')).status, 429);
  });

  await t.test('behind one trusted proxy hop each forwarded client has its own allowance', async (t) => {
    const server = await startTestServer(t, { playgroundRateLimit: 1, trustProxy: 1 });
    assert.equal((await call(server, '198.51.100.1')).status, 200);
    assert.equal((await call(server, '198.51.100.2')).status, 200);
    assert.equal((await call(server, '198.51.100.2')).status, 429);
  });
});

test('a generated admin token is printed once to the terminal and never written to the log', {
  timeout: 60_000,
  ...oneInstanceOnly('a generated token differs per DATA_DIR'),
}, async (t) => {
  const lines: string[] = [];
  const log = pino(
    { level: 'debug' },
    new Writable({
      write: (chunk, _encoding, done) => {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  const printed: string[] = [];
  const server = await startTestServer(t, { adminToken: '' }, { log, terminal: { isTTY: true, write: (text: string) => printed.push(text) } });
  assert.ok(server.adminToken.length >= 16);
  assert.equal(printed.filter((text) => text.includes(server.adminToken)).length, 1, 'shown once on the terminal');
  assert.ok(lines.length > 0, 'the log was captured');
  assert.ok(!lines.some((line) => line.includes(server.adminToken)), 'the token is not in the log');
});

test('background batches past a key’s backlog cap get 429 too_many_batches, past the server’s 503, with Retry-After', { timeout: 120_000 }, async (t) => {
  const server = await startTestServer(t, { batchQueueItemsPerKey: 15, batchQueueItems: 20, batchQueueBytesPerKey: 64 * 1024, shutdownTimeoutMs: 1000 });
  // Slow items keep the first batch waiting for the whole test.
  const slowBatch = (items: number) => ({
    async: true,
    requests: Array.from({ length: items }, (_, i) => ({ html: `<p>item ${i}</p>`, options: { wait_until: 'load', wait_ms: 5000 } })),
  });
  const batch = (key: { key: string }, body: unknown) => server.request('POST', '/v1/pdf/batch', body, bearer(key.key));

  assert.equal((await batch(server.key, slowBatch(12))).status, 202);
  const overKey = await batch(server.key, slowBatch(4));
  const keyError = await errorOf(overKey);
  assert.deepEqual([keyError.status, keyError.code], [429, 'too_many_batches'], keyError.detail);
  assert.match(overKey.headers.get('retry-after') ?? '', /^\d+$/);

  const other = await server.createKey('business');
  const bytes = await errorOf(await batch(other, { async: true, requests: [{ html: `<p>${'x'.repeat(70 * 1024)}</p>` }] }));
  assert.deepEqual([bytes.status, bytes.code], [429, 'too_many_batches'], 'the bytes of stored requests count per key too');

  const overServer = await batch(other, slowBatch(12));
  const serverError = await errorOf(overServer);
  assert.deepEqual([serverError.status, serverError.code], [503, 'renderer_busy'], serverError.detail);
  assert.match(overServer.headers.get('retry-after') ?? '', /^\d+$/);

  // Small batches answered in the call are not background backlog: they still go through.
  const inCall = await batch(other, { requests: [{ html: '<p>now</p>', options: { wait_until: 'load' } }] });
  assert.equal(inCall.status, 200);
});

// In the two-instance lane too: the count is shared (stores/pg/rate-limits.ts) and both instances get this resolver.
test('the playground counts its rate limit before any DNS lookup', { timeout: 60_000 }, async (t) => {
  const looked: string[] = [];
  const resolve = async (host: string) => {
    looked.push(host);
    return ['93.184.215.14'];
  };
  const server = await startTestServer(t, { playgroundRateLimit: 1 }, { resolve });
  assert.equal((await server.requestWithoutKey('POST', '/v1/playground/pdf', { html: '<p>one</p>', options: LOAD })).status, 200);
  const refused = await errorOf(await server.requestWithoutKey('POST', '/v1/playground/pdf', { url: 'http://flood-1.example/' }));
  assert.deepEqual([refused.status, refused.code], [429, 'rate_limited']);
  assert.deepEqual(looked, [], 'a caller over the limit made the server resolve nothing');
});

test('a key over its plan’s concurrency waits in its own queue; another key’s render takes the free slot', {
  timeout: 120_000,
  ...oneInstanceOnly('the render queue is per instance'),
}, async (t) => {
  // A long queue wait: the flooder's last render waits for three others, however loaded the machine.
  const server = await startTestServer(t, { renderConcurrency: 2, renderQueueTimeoutMs: 120_000 });
  const flooder = await server.createKey('free'); // concurrency 1
  const single = await server.createKey('free');
  const slow = { html: '<p>slow</p>', options: { wait_until: 'load', wait_ms: 2000 } };
  const flood = Array.from({ length: 4 }, () => server.render(slow, bearer(flooder)).then(async (response) => response.status));
  // One of the flooder's renders runs; its other three wait although a slot is free (before: two ran, two waited).
  await waitFor(async () => {
    const state = await rendererState(server);
    return state.busy === 1 && state.queued === 3;
  }, "one of the flooder's renders to run and three to queue");
  const response = await server.render({ html: '<h1>Single request</h1>', options: LOAD }, bearer(single));
  assert.equal(response.status, 200);
  assert.match((await inspectPdf(await response.arrayBuffer())).text, /Single request/);
  assert.deepEqual(await Promise.all(flood), [200, 200, 200, 200], 'the flooder’s renders all run in turn');
});
