// Batch rendering through the API (docs/api.md#batches): in the call and in the background, the
// plan's rules, per-item failures and charges. Real Chromium; items render fast (wait_until: load).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, errorOf, startTestServer } from '../helpers/start-app.ts';
import { writePlansFile } from '../helpers/test-plans.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { fastLane } from '../helpers/fake-page-source.ts';
import { FAST, htmlItems, postBatch, waitForBatch, type BatchJson } from '../helpers/batches.ts';
import { documentsOf, usedThisMonth } from '../helpers/batch-documents.ts';

test('an in-call batch answers 200 with every result, failed items with their code, each success stored as source batch', {
  skip: fastLane() && 'asserts page counts of its documents: needs a real Chromium',
}, async (t) => {
  const server = await startTestServer(t);
  const key = await server.createKey('starter');
  const response = await postBatch(
    server,
    {
      requests: [
        { html: '<h1>Letter A</h1>', filename: 'a.pdf' },
        { html: '<h1>Letter B</h1>' },
        { url: 'http://127.0.0.1:9/private' },
        { template_id: 'tpl_doesnotexist1', data: { name: 'x' } },
        { html: '<p>one page</p>', options: { page_ranges: '5' } },
      ],
      options: FAST,
    },
    key,
  );
  assert.equal(response.status, 200, 'answered in the call, although some items failed');
  assert.deepEqual(
    [response.headers.get('x-service-usage'), response.headers.get('x-service-limit'), response.headers.get('x-service-plan')],
    ['2', '1000', 'starter'],
  );
  const batch = (await response.json()) as BatchJson;
  assert.match(batch.batch_id, /^bat_/);
  assert.deepEqual([batch.status, batch.total, batch.succeeded, batch.failed], ['completed', 5, 2, 3]);
  assert.deepEqual(
    batch.results.map((result) => [result.index, result.status, result.error?.code]),
    [
      [0, 'succeeded', undefined],
      [1, 'succeeded', undefined],
      [2, 'failed', 'url_blocked'],
      [3, 'failed', 'template_not_found'],
      [4, 'failed', 'invalid_request'],
    ],
  );
  assert.equal(batch.results[0]!.filename, 'a.pdf');
  for (const failed of batch.results.slice(2)) {
    assert.equal(failed.document_id, undefined);
    assert.ok(failed.error!.detail.length > 10, 'a sentence for a person');
  }

  const documents = await documentsOf(server, key);
  assert.deepEqual(documents.map((document) => document.id).sort(), [batch.results[0]!.document_id, batch.results[1]!.document_id].sort());
  for (const document of documents) assert.deepEqual([document.source, document.batch_id], ['batch', batch.batch_id]);
  const pdf = await server.request('GET', `/v1/documents/${batch.results[0]!.document_id}`, undefined, bearer(key));
  assert.equal(pdf.status, 200);
  assert.match((await inspectPdf(await pdf.arrayBuffer())).text, /Letter A/);
  assert.equal(await usedThisMonth(server, key), 2, 'failed items cost nothing');

  const fetched = await server.request('GET', `/v1/pdf/batch/${batch.batch_id}`, undefined, bearer(key));
  assert.deepEqual(await fetched.json(), batch, 'GET answers the same shape for an in-call batch');
});

test('more than 10 items, or async: true, answers 202 with Location and every item queued; GET follows it to completed', async (t) => {
  const server = await startTestServer(t);
  const response = await postBatch(server, { requests: htmlItems(12), options: FAST });
  assert.equal(response.status, 202);
  const accepted = (await response.json()) as BatchJson;
  assert.equal(response.headers.get('location'), `/v1/pdf/batch/${accepted.batch_id}`);
  assert.equal(response.headers.get('x-service-plan'), 'business');
  assert.deepEqual([accepted.status, accepted.total, accepted.succeeded, accepted.failed], ['queued', 12, 0, 0]);
  assert.ok(accepted.results.every((result) => result.status === 'queued' && result.document_id === undefined));

  const done = await waitForBatch(server, accepted.batch_id);
  assert.deepEqual([done.succeeded, done.failed], [12, 0]);
  const ids = done.results.map((result) => result.document_id);
  assert.equal(new Set(ids).size, 12, 'one document per item');
  assert.equal(await usedThisMonth(server, server.key), 12);

  const key = await server.createKey('starter');
  const forced = await postBatch(server, { requests: htmlItems(2), options: FAST, async: true }, key);
  assert.equal(forced.status, 202, 'async: true sends even a small batch to the background');
  const small = await waitForBatch(server, ((await forced.json()) as BatchJson).batch_id, key);
  assert.equal(small.succeeded, 2);
});

test('a batch on the free plan is 403 plan_required naming Starter', async (t) => {
  const server = await startTestServer(t);
  const key = await server.createKey('free');
  const error = await errorOf(await postBatch(server, { requests: htmlItems(1) }, key));
  assert.deepEqual([error.status, error.code], [403, 'plan_required']);
  assert.match(error.detail, /Starter/);
});

test('more items than the plan allows is 422 batch_too_large naming the cap', async (t) => {
  const server = await startTestServer(t);
  const key = await server.createKey('starter');
  const error = await errorOf(await postBatch(server, { requests: htmlItems(11), async: true }, key));
  assert.deepEqual([error.status, error.code], [422, 'batch_too_large']);
  assert.match(error.detail, /at most 10 items/);
  assert.match(error.detail, /got 11/);
  assert.equal((await errorOf(await postBatch(server, { requests: htmlItems(251), async: true }))).code, 'batch_too_large', 'business: 250');
});

test('a plan that keeps no documents cannot batch: 422 storage_unavailable', async (t) => {
  const plansFile = await writePlansFile(t, [{ id: 'nokeep', name: 'Nokeep', monthly_documents: 100, retention: 0, batch_max_items: 10 }]);
  const server = await startTestServer(t, { plansFile });
  const key = await server.createKey('nokeep');
  const error = await errorOf(await postBatch(server, { requests: htmlItems(2) }, key));
  assert.deepEqual([error.status, error.code], [422, 'storage_unavailable']);
});

test('items past the monthly allowance fail with quota_exceeded and are not charged', async (t) => {
  const plansFile = await writePlansFile(t, [{ id: 'three', name: 'Three', monthly_documents: 3, retention: '1d', batch_max_items: 10 }]);
  const server = await startTestServer(t, { plansFile });
  const key = await server.createKey('three');
  assert.equal((await server.render({ html: '<p>one</p>', options: FAST }, bearer(key))).status, 200);
  const response = await postBatch(server, { requests: htmlItems(4), options: FAST }, key);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('x-service-usage'), '3');
  const batch = (await response.json()) as BatchJson;
  assert.deepEqual(
    batch.results.map((result) => result.status),
    ['succeeded', 'succeeded', 'failed', 'failed'],
  );
  assert.deepEqual(
    batch.results.slice(2).map((result) => result.error?.code),
    ['quota_exceeded', 'quota_exceeded'],
  );
  assert.equal(await usedThisMonth(server, key), 3);
  assert.equal((await documentsOf(server, key)).filter((document) => document.source === 'batch').length, 2);

  const queued = await postBatch(server, { requests: htmlItems(2), options: FAST, async: true }, key);
  assert.equal(queued.status, 202, 'a background batch is accepted; its items fail one by one');
  const done = await waitForBatch(server, ((await queued.json()) as BatchJson).batch_id, key);
  assert.deepEqual(
    done.results.map((result) => result.error?.code),
    ['quota_exceeded', 'quota_exceeded'],
  );
  assert.equal(await usedThisMonth(server, key), 3);
});
