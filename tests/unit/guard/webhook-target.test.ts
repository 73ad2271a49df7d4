// webhook_url through the network guard: checked when given and again at delivery, delivered to
// exactly the checked address, redirects never followed. Canaries on loopback fail the test on
// any hit; names go through a fake resolver.

import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createAddressPolicy } from '../../../server/src/guard/address-policy.ts';
import { BlockedUrlError } from '../../../server/src/guard/url-check.ts';
import { checkWebhookTarget, deliverWebhook } from '../../../server/src/guard/webhook-target.ts';
import { fakeResolver, startRecordingServer, type RecordingServer } from '../../helpers/canary.ts';

async function setUp(t: TestContext): Promise<{ receiver: RecordingServer; canary: RecordingServer; sibling: RecordingServer }> {
  const canary = await startRecordingServer('127.0.0.1');
  const receiver = await startRecordingServer('127.0.0.1', 0, {
    '/hook': (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk;
      });
      req.on('end', () => void res.writeHead(200, { 'content-type': 'text/plain' }).end(`got ${body} ${req.headers['webhook-id']}`));
    },
    '/moved': (_req, res) => void res.writeHead(307, { location: `${canary.url}/stolen` }).end(),
  });
  const sibling = await startRecordingServer('127.0.0.2', receiver.port);
  t.after(() => Promise.all([canary.close(), receiver.close(), sibling.close()]));
  return { receiver, canary, sibling };
}

const request = { body: '{"type":"batch.completed"}', headers: { 'webhook-id': 'msg_1' }, timeoutMs: 5000 };

test('a webhook_url to a blocked address is refused when given, in every spelling', async (t) => {
  const { receiver, canary, sibling } = await setUp(t);
  const policy = createAddressPolicy([`127.0.0.1:${receiver.port}`], []);
  const resolve = fakeResolver({ 'rebind.test': ['127.0.0.1'], 'sibling.test': ['127.0.0.2'] });
  for (const url of [
    `${canary.url}/hook`,
    `http://localhost:${canary.port}/hook`,
    `http://2130706433:${canary.port}/hook`,
    `http://[::ffff:127.0.0.1]:${canary.port}/hook`,
    `http://rebind.test:${canary.port}/hook`,
    `http://sibling.test:${receiver.port}/hook`,
    `${sibling.url}/hook`,
    `https://127.0.0.1:${canary.port}/hook`,
    `ftp://127.0.0.1:${canary.port}/hook`,
    'file:///etc/passwd',
    `http://user:secret@127.0.0.1:${receiver.port}/hook`,
  ]) {
    await assert.rejects(checkWebhookTarget(url, policy, resolve), BlockedUrlError, url);
    await assert.rejects(deliverWebhook(url, request, policy, resolve), BlockedUrlError, url);
  }
  assert.equal(canary.connections + sibling.connections + receiver.connections, 0);
});

test('an allowed webhook_url is delivered to the checked address', async (t) => {
  const { receiver } = await setUp(t);
  const policy = createAddressPolicy([`127.0.0.1:${receiver.port}`], []);
  const target = await checkWebhookTarget(`${receiver.url}/hook`, policy, fakeResolver({}));
  assert.equal(target.address, '127.0.0.1');
  const delivery = await deliverWebhook(`${receiver.url}/hook`, request, policy, fakeResolver({}));
  assert.deepEqual(delivery, { status: 200, body: 'got {"type":"batch.completed"} msg_1' });
});

test('delivery connects to the address it checked, not to a later DNS answer (rebinding)', async (t) => {
  const { receiver, sibling } = await setUp(t);
  const policy = createAddressPolicy([`127.0.0.1:${receiver.port}`], []);
  let calls = 0;
  const resolve = fakeResolver({ 'hooks.test': () => (calls++ === 0 ? ['127.0.0.1'] : ['127.0.0.2']) });
  const delivery = await deliverWebhook(`http://hooks.test:${receiver.port}/hook`, request, policy, resolve);
  assert.equal(delivery.status, 200);
  assert.equal(calls, 1, 'resolved once: the HTTP client used the pinned address');
  assert.equal(sibling.connections, 0);
});

test('a webhook_url accepted earlier is checked again at delivery', async (t) => {
  const { receiver, sibling } = await setUp(t);
  const policy = createAddressPolicy([`127.0.0.1:${receiver.port}`], []);
  let answer = ['127.0.0.1'];
  const resolve = fakeResolver({ 'hooks.test': () => answer });
  await checkWebhookTarget(`http://hooks.test:${receiver.port}/hook`, policy, resolve);
  answer = ['127.0.0.2'];
  await assert.rejects(deliverWebhook(`http://hooks.test:${receiver.port}/hook`, request, policy, resolve), BlockedUrlError);
  assert.equal(sibling.connections + receiver.connections, 0);
  // The operator closing the address after acceptance works the same way.
  const closed = createAddressPolicy([`127.0.0.1:${receiver.port}`], [`127.0.0.1:${receiver.port}`]);
  await assert.rejects(deliverWebhook(`${receiver.url}/hook`, request, closed, resolve), BlockedUrlError);
});

test('a redirect answer is reported, never followed', async (t) => {
  const { receiver, canary } = await setUp(t);
  const policy = createAddressPolicy([`127.0.0.1:${receiver.port}`, `127.0.0.1:${canary.port}`], []);
  const delivery = await deliverWebhook(`${receiver.url}/moved`, request, policy, fakeResolver({}));
  assert.equal(delivery.status, 307);
  assert.equal(canary.connections, 0, 'the redirect target was reached');
});
