// Batch webhooks (docs/api.md#webhooks): Standard Webhooks signatures checked with the official
// standardwebhooks library, retries with backoff, every try recorded for the admin, redirects never
// followed, slow receivers cut off, blocked targets refused when given, and a pending delivery
// that survives a restart. Receivers are loopback servers opened to the guard with ALLOW_HOSTS;
// retry waits are milliseconds here.
// test-lane: own-server (lists every key's batches).

import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { errorOf, startTestServer, type TestServer } from '../helpers/start-app.ts';
import { startRecordingServer, type RecordingServer } from '../helpers/canary.ts';
import { FAST, htmlItems, postBatch, waitForAdminBatch, waitForBatch, type AdminBatchJson, type BatchJson } from '../helpers/batches.ts';
import type { Config } from '../../server/src/config.ts';

interface Delivery {
  headers: Record<string, string>;
  body: string;
}

type Answer = (res: http.ServerResponse, delivery: Delivery) => void;

/** A loopback receiver at /hook: records every delivery and answers with the next of `answers` (the last repeats). */
async function startReceiver(t: TestContext, answers: Answer[]): Promise<RecordingServer & { deliveries: Delivery[] }> {
  const deliveries: Delivery[] = [];
  const receiver = await startRecordingServer('127.0.0.1', 0, {
    '/hook': (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      req.on('end', () => {
        const delivery = { headers: req.headers as Record<string, string>, body };
        deliveries.push(delivery);
        answers[Math.min(deliveries.length - 1, answers.length - 1)]!(res, delivery);
      });
    },
  });
  t.after(() => receiver.close());
  return Object.assign(receiver, { deliveries });
}

const answer =
  (status: number, headers: Record<string, string> = {}): Answer =>
  (res) =>
    void res.writeHead(status, headers).end('answer');

async function serverFor(t: TestContext, receiver: { port: number }, config: Partial<Config> = {}): Promise<TestServer> {
  return startTestServer(t, { allowHosts: [`127.0.0.1:${receiver.port}`], webhookRetryBaseMs: 20, webhookTimeoutMs: 2000, ...config });
}

test('a completed batch is POSTed to webhook_url as batch.completed, signed so that the standardwebhooks library verifies it', async (t) => {
  const receiver = await startReceiver(t, [answer(200)]);
  const server = await serverFor(t, receiver);
  const whsec = `whsec_${randomBytes(32).toString('base64')}`;
  const plain = 'a plain secret of some length';

  const background = (await (
    await postBatch(server, { requests: htmlItems(2), options: FAST, async: true, webhook_url: `${receiver.url}/hook`, webhook_secret: whsec })
  ).json()) as BatchJson;
  const inCall = await postBatch(server, {
    requests: [...htmlItems(1), { url: 'http://127.0.0.1:9/' }],
    options: FAST,
    webhook_url: `${receiver.url}/hook`,
    webhook_secret: plain,
  });
  assert.equal(inCall.status, 200, 'an in-call batch answers first and notifies after');
  const inCallBatch = (await inCall.json()) as BatchJson;

  for (const [batch, verifier] of [
    [background, new Webhook(whsec)],
    [inCallBatch, new Webhook(Buffer.from(plain, 'utf8').toString('base64'))],
  ] as const) {
    await waitForAdminBatch(server, batch.batch_id, (admin) => admin.webhook_status === 'delivered');
    const delivery = receiver.deliveries.find((candidate) => candidate.body.includes(batch.batch_id))!;
    assert.ok(delivery, `delivered ${batch.batch_id}`);
    const payload = verifier.verify(delivery.body, delivery.headers) as { type: string; timestamp: string; data: BatchJson };
    assert.equal(payload.type, 'batch.completed');
    const current = await waitForBatch(server, batch.batch_id);
    assert.deepEqual(payload.data, current, 'data is the batch as GET answers it');
    assert.equal(payload.timestamp, current.completed_at);
    assert.match(delivery.headers['webhook-id']!, /^msg_/);
    assert.match(delivery.headers['webhook-signature']!, /^v1,[A-Za-z0-9+/=]+$/);
    assert.equal(delivery.headers['content-type'], 'application/json');
    assert.throws(
      () => new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(delivery.body, delivery.headers),
      /signature/i,
      'another secret does not verify',
    );
  }
  assert.equal(
    receiver.deliveries.find((delivery) => delivery.body.includes(inCallBatch.batch_id))!.body.includes('url_blocked'),
    true,
    'failed items carry their code',
  );
});

test('a receiver that answers 500 is tried again with backoff until it answers 2xx; every try is recorded for the admin', async (t) => {
  const receiver = await startReceiver(t, [answer(500), answer(503), answer(204)]);
  const server = await serverFor(t, receiver);
  const accepted = (await (
    await postBatch(server, {
      requests: htmlItems(1),
      options: FAST,
      async: true,
      webhook_url: `${receiver.url}/hook`,
      webhook_secret: 'sixteen-chars-at-least',
    })
  ).json()) as BatchJson;
  const batch = await waitForAdminBatch(server, accepted.batch_id, (admin) => admin.webhook_status === 'delivered');
  assert.equal(batch.webhook_url, `${receiver.url}/hook`);
  assert.deepEqual(
    batch.deliveries.map((attempt) => [attempt.attempt, attempt.status_code, attempt.ok]),
    [
      [1, 500, false],
      [2, 503, false],
      [3, 204, true],
    ],
  );
  // The schedule (not a measured time): each wait after a try is WEBHOOK_RETRY_BASE_MS x 4^(n-1).
  const waits = batch.deliveries.map((attempt) =>
    attempt.next_attempt_at ? Date.parse(attempt.next_attempt_at) - Date.parse(attempt.at) - attempt.duration_ms : null,
  );
  assert.deepEqual(waits, [20, 80, null]);
  assert.equal(new Set(receiver.deliveries.map((delivery) => delivery.headers['webhook-id'])).size, 1, 'the same webhook-id on every try');
  assert.equal(JSON.stringify(batch).includes('sixteen-chars-at-least'), false, 'the secret is never shown');
});

test('after WEBHOOK_ATTEMPTS failed tries the delivery gives up, recorded as failed', async (t) => {
  const receiver = await startReceiver(t, [answer(500)]);
  const server = await serverFor(t, receiver, { webhookAttempts: 3 });
  const accepted = (await (
    await postBatch(server, { requests: htmlItems(1), options: FAST, async: true, webhook_url: `${receiver.url}/hook` })
  ).json()) as BatchJson;
  const batch = await waitForAdminBatch(server, accepted.batch_id, (admin) => admin.webhook_status === 'failed');
  assert.deepEqual(
    batch.deliveries.map((attempt) => attempt.status_code),
    [500, 500, 500],
  );
  assert.equal(batch.deliveries.at(-1)!.next_attempt_at, null);
  assert.equal(receiver.deliveries.length, 3);
  assert.equal(receiver.deliveries[0]!.headers['webhook-signature'], undefined, 'without a secret nothing is signed');
});

test('a redirecting receiver is recorded as a failed try and the redirect is never followed', async (t) => {
  const canary = await startRecordingServer('127.0.0.1');
  t.after(() => canary.close());
  const receiver = await startReceiver(t, [answer(307, { location: `${canary.url}/stolen` })]);
  const server = await startTestServer(t, {
    allowHosts: [`127.0.0.1:${receiver.port}`, `127.0.0.1:${canary.port}`],
    webhookRetryBaseMs: 20,
    webhookAttempts: 2,
  });
  const accepted = (await (
    await postBatch(server, { requests: htmlItems(1), options: FAST, async: true, webhook_url: `${receiver.url}/hook` })
  ).json()) as BatchJson;
  const batch = await waitForAdminBatch(server, accepted.batch_id, (admin) => admin.webhook_status === 'failed');
  assert.deepEqual(
    batch.deliveries.map((attempt) => [attempt.status_code, attempt.ok, attempt.error?.code]),
    [
      [307, false, 'redirect_not_followed'],
      [307, false, 'redirect_not_followed'],
    ],
  );
  assert.equal(canary.connections, 0, 'the Location was never visited');
});

test('a slow receiver is cut off at WEBHOOK_TIMEOUT_MS, whether silent or trickling its answer', async (t) => {
  const open: http.ServerResponse[] = [];
  t.after(() => {
    for (const res of open) res.destroy();
  });
  const silent: Answer = (res) => void open.push(res);
  const trickle: Answer = (res) => {
    open.push(res);
    res.writeHead(200, { 'content-type': 'text/plain' });
    const timer = setInterval(() => res.write('.'), 50);
    res.on('close', () => clearInterval(timer));
  };
  const receiver = await startReceiver(t, [silent, trickle]);
  const server = await serverFor(t, receiver, { webhookTimeoutMs: 400, webhookAttempts: 2 });
  const accepted = (await (
    await postBatch(server, { requests: htmlItems(1), options: FAST, async: true, webhook_url: `${receiver.url}/hook` })
  ).json()) as BatchJson;
  const batch = await waitForAdminBatch(server, accepted.batch_id, (admin) => admin.webhook_status === 'failed');
  assert.deepEqual(
    batch.deliveries.map((attempt) => attempt.error?.code),
    ['timeout', 'timeout'],
  );
  assert.ok(batch.deliveries.every((attempt) => attempt.ok === false));
});

test('a webhook_url to a blocked address is refused when the batch is created: 400 url_blocked, nothing created', async (t) => {
  const canary = await startRecordingServer('127.0.0.1');
  t.after(() => canary.close());
  const server = await startTestServer(t);
  for (const url of [
    `${canary.url}/hook`,
    `http://localhost:${canary.port}/hook`,
    'http://169.254.169.254/latest/meta-data',
    `http://[::1]:${canary.port}/`,
    'file:///etc/passwd',
    'not a url',
  ]) {
    const error = await errorOf(await postBatch(server, { requests: htmlItems(1), async: true, webhook_url: url }));
    assert.deepEqual([error.status, error.code], [400, 'url_blocked'], url);
    assert.match(error.detail, /^webhook_url is not allowed/);
  }
  const listed = (await (await server.admin('GET', '/admin/v1/batches')).json()) as { data: unknown[] };
  assert.deepEqual(listed.data, []);
  assert.equal(canary.connections, 0);
});

test('a webhook still to be delivered when the server stops is delivered after it starts again', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-webhook-restart-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  let failing = true;
  const receiver = await startReceiver(t, [(res) => void res.writeHead(failing ? 500 : 200).end()]);
  const config = { dataDir, adminToken: 'adm_webhook_restart_0123456789', webhookRetryBaseMs: 1500 };
  const cleanups: (() => Promise<void>)[] = [];
  const first = await serverFor({ after: (fn: () => Promise<void>) => void cleanups.push(fn) } as unknown as TestContext, receiver, config);
  const accepted = (await (
    await postBatch(first, { requests: htmlItems(1), options: FAST, async: true, webhook_url: `${receiver.url}/hook` })
  ).json()) as BatchJson;
  await waitForAdminBatch(first, accepted.batch_id, (admin) => admin.deliveries.length === 1);
  for (const cleanup of cleanups) await cleanup();

  failing = false;
  const second = await serverFor(t, receiver, config);
  const batch = await waitForAdminBatch(second, accepted.batch_id, (admin) => admin.webhook_status === 'delivered');
  assert.deepEqual(
    batch.deliveries.map((attempt: AdminBatchJson['deliveries'][number]) => [attempt.attempt, attempt.status_code]),
    [
      [1, 500],
      [2, 200],
    ],
  );
});
