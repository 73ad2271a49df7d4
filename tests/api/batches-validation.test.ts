// Batch rendering through the API (docs/api.md#batches): option merging, validation of the whole
// call before anything runs, scoping to the key, and items of a revoked key. Real Chromium.
// test-lane: own-server (counts the app's renders).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, errorOf, startTestServer } from '../helpers/start-app.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { fastLane } from '../helpers/fake-page-source.ts';
import { FAST, htmlItems, postBatch, waitForAdminBatch, waitForBatch, type BatchJson } from '../helpers/batches.ts';

test('per-item options are merged field by field over the shared options', {
  skip: fastLane() && 'asserts the layout the options make: needs a real Chromium',
}, async (t) => {
  const server = await startTestServer(t);
  const response = await postBatch(server, {
    options: { format: 'A5', landscape: true, wait_until: 'load' },
    requests: [{ html: '<p>shared</p>' }, { html: '<p>letter</p>', options: { format: 'Letter' } }, { html: '<p>portrait</p>', options: { landscape: false } }],
  });
  const batch = (await response.json()) as BatchJson;
  assert.equal(batch.succeeded, 3);
  const sizes = [];
  for (const result of batch.results) {
    const pdf = await server.request('GET', `/v1/documents/${result.document_id}`);
    const { pages } = await inspectPdf(await pdf.arrayBuffer());
    sizes.push([Math.round(pages[0]!.width), Math.round(pages[0]!.height)]);
  }
  const expected = [
    [595, 420],
    [792, 612],
    [420, 595],
  ];
  sizes.forEach(([width, height], i) => {
    assert.ok(Math.abs(width! - expected[i]![0]!) <= 2 && Math.abs(height! - expected[i]![1]!) <= 2, `item ${i}: ${width} x ${height} pt`);
  });
});

test('the whole batch is validated first: a bad field in one item is a 400 naming it, and nothing runs', async (t) => {
  const server = await startTestServer(t);
  const rendersBefore = server.app.renderer.stats().rendersTotal;
  const items = htmlItems(4);
  const cases: [unknown, string, RegExp][] = [
    [
      { requests: items.map((item, i) => (i === 3 ? { ...item, options: { scale: 5 } } : item)) },
      'invalid_request',
      /^requests\[3\]\.options\.scale must be between 0\.1 and 2\.0/,
    ],
    [
      { requests: [items[0], { html: 'x', options: { margin: '20cm' } }], options: { format: 'A5' } },
      'invalid_request',
      /^requests\[1\]\.options\.margin leaves no room for content on A5 paper/,
    ],
    [{ requests: [items[0], items[1], { html: 'x', url: 'https://example.com/' }] }, 'conflicting_source', /^requests\[2\]/],
    [{ requests: [{ filename: 'x.pdf' }] }, 'invalid_request', /^requests\[0\] needs one of html, url, markdown, template_id or office/],
    [{ requests: [{ html: 'x', colour: 'red' }] }, 'invalid_request', /^requests\[0\]\.colour is not a known field/],
    [{ requests: [{ html: 'x', store: false }] }, 'invalid_request', /^requests\[0\]\.store/],
    [{ requests: [] }, 'invalid_request', /^requests must have at least 1/],
    [{ requests: items, options: { scale: 0 } }, 'invalid_request', /^(options|requests\[0\]\.options)\.scale/],
    [{ requests: items, webhook_url: 'https://example.com/hook', webhook_secret: 'short' }, 'invalid_request', /^webhook_secret/],
    [{ requests: items, webhook_url: 'https://example.com/hook', webhook_secret: 'whsec_***not base64 at all***' }, 'invalid_request', /^webhook_secret/],
    [{ requests: items, webhook_secret: 'a-secret-of-sixteen-chars' }, 'invalid_request', /^webhook_secret is only used with webhook_url/],
  ];
  for (const [body, code, detail] of cases) {
    const error = await errorOf(await postBatch(server, body));
    assert.deepEqual([error.status, error.code], [400, code], JSON.stringify(body).slice(0, 200));
    assert.match(error.detail, detail);
  }
  const listed = (await (await server.admin('GET', `/admin/v1/batches?key_id=${server.key.id}`)).json()) as { data: unknown[] };
  assert.deepEqual(listed.data, [], 'no batch was created');
  assert.equal(server.app.renderer.stats().rendersTotal, rendersBefore, 'nothing rendered');
});

test('another key’s batch is 404 batch_not_found, like an unknown one', async (t) => {
  const server = await startTestServer(t);
  const other = await server.createKey('starter');
  const batch = (await (await postBatch(server, { requests: htmlItems(1), options: FAST })).json()) as BatchJson;
  for (const id of [batch.batch_id, 'bat_unknown000000000']) {
    const error = await errorOf(await server.request('GET', `/v1/pdf/batch/${id}`, undefined, bearer(other)));
    assert.deepEqual([error.status, error.code], [404, 'batch_not_found']);
  }
  assert.equal((await server.request('GET', `/v1/pdf/batch/${batch.batch_id}`)).status, 200);
});

test('items still queued when their key is revoked fail with forbidden; the batch completes', async (t) => {
  const server = await startTestServer(t);
  const key = await server.createKey('business');
  const accepted = (await (await postBatch(server, { requests: htmlItems(16), options: { ...FAST, wait_ms: 100 } }, key)).json()) as BatchJson;
  await waitForBatch(server, accepted.batch_id, key, (batch) => batch.succeeded >= 1);
  assert.equal((await server.admin('DELETE', `/admin/v1/keys/${key.id}`)).status, 204);
  const batch = await waitForAdminBatch(server, accepted.batch_id, (admin) => admin.status === 'completed');
  assert.ok(batch.results.every((result) => result.status === 'succeeded' || result.error?.code === 'forbidden'));
  assert.ok(batch.results.some((result) => result.error?.code === 'forbidden'));
  assert.equal(batch.succeeded + batch.failed, 16);
});
