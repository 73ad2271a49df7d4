// Batch rendering through the API (docs/api.md#batches): fairness between keys, priority of
// interactive renders, render slots, the admin views and the admin event stream. Real Chromium.
// test-lane: own-server (lists every key's batches and reads the server-wide queue).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorOf, startTestServer } from '../helpers/start-app.ts';
import { FAST, htmlItems, postBatch, waitForBatch, type AdminBatchJson, type BatchJson } from '../helpers/batches.ts';
import { type DocumentJson, documentsOf } from '../helpers/batch-documents.ts';

test('batches of different keys are served fairly: a small batch sent after a large one completes first', async (t) => {
  const server = await startTestServer(t);
  const other = await server.createKey('business');
  const large = (await (await postBatch(server, { requests: htmlItems(48), options: { ...FAST, wait_ms: 100 } })).json()) as BatchJson;
  const small = (await (await postBatch(server, { requests: htmlItems(3), options: FAST, async: true }, other)).json()) as BatchJson;
  const smallDone = await waitForBatch(server, small.batch_id, other);
  const largeDone = await waitForBatch(server, large.batch_id);
  assert.ok(Date.parse(smallDone.completed_at!) < Date.parse(largeDone.completed_at!), 'the small batch did not wait for the large one');
  // Served in turns. Counted from the small batch's acceptance, not from the start: how much of the
  // large batch is done before the second request arrives depends on the machine's load. The worker
  // keeps 8 items in flight (2 slots x 4): at most 8 large items running at acceptance, 2 handed out
  // between the 3 small ones and 7 while the last small one runs; first-come-first-served would have
  // done every remaining large item first.
  const largeDocuments = (await documentsOf(server, server.key)) as (DocumentJson & { created_at: string })[];
  const during = largeDocuments.filter((document) => {
    const at = Date.parse(document.created_at);
    return at > Date.parse(smallDone.created_at) && at <= Date.parse(smallDone.completed_at!);
  });
  const after = largeDocuments.filter((document) => Date.parse(document.created_at) > Date.parse(smallDone.completed_at!));
  assert.ok(during.length <= 17, `${during.length} large items were done while the 3 small ones waited`);
  assert.ok(after.length > 0, 'large items were still to render when the small batch completed');
});

test('an interactive render is served while a long background batch runs, before the batch completes', async (t) => {
  const server = await startTestServer(t);
  const accepted = (await (await postBatch(server, { requests: htmlItems(30), options: { ...FAST, wait_ms: 100 } })).json()) as BatchJson;
  await waitForBatch(server, accepted.batch_id, undefined, (batch) => batch.succeeded >= 2);
  const render = await server.render({ html: '<p>interactive</p>', options: FAST });
  assert.equal(render.status, 200);
  await render.arrayBuffer();
  const during = await waitForBatch(server, accepted.batch_id, undefined, () => true);
  assert.notEqual(during.status, 'completed', 'the interactive render did not wait for the batch');
  assert.ok(during.results.some((result) => result.status === 'queued'));
  const done = await waitForBatch(server, accepted.batch_id);
  assert.equal(done.succeeded, 30);
});

test('the admin views list every key’s batches (key_id filter, paging) and show one with its results', async (t) => {
  const server = await startTestServer(t);
  const other = await server.createKey('starter');
  const mine = [];
  for (let i = 0; i < 3; i++) mine.push(((await (await postBatch(server, { requests: htmlItems(1), options: FAST })).json()) as BatchJson).batch_id);
  const theirs = ((await (await postBatch(server, { requests: htmlItems(2), options: FAST }, other)).json()) as BatchJson).batch_id;

  const all = (await (await server.admin('GET', '/admin/v1/batches')).json()) as { data: AdminBatchJson[]; next_cursor: string | null };
  assert.deepEqual(
    all.data.map((batch) => batch.batch_id),
    [theirs, ...mine.reverse()],
    'newest first',
  );
  assert.equal(all.data[0]!.key_id, other.id);
  assert.equal((all.data[0] as unknown as { results?: unknown }).results, undefined, 'the list carries no per-item results');

  const filtered = (await (await server.admin('GET', `/admin/v1/batches?key_id=${server.key.id}&limit=2`)).json()) as {
    data: AdminBatchJson[];
    next_cursor: string;
  };
  assert.deepEqual(
    filtered.data.map((batch) => batch.batch_id),
    mine.slice(0, 2),
  );
  const rest = (await (await server.admin('GET', `/admin/v1/batches?key_id=${server.key.id}&limit=2&cursor=${filtered.next_cursor}`)).json()) as {
    data: AdminBatchJson[];
    next_cursor: null;
  };
  assert.deepEqual([rest.data.map((batch) => batch.batch_id), rest.next_cursor], [mine.slice(2), null]);

  const one = (await (await server.admin('GET', `/admin/v1/batches/${theirs}`)).json()) as AdminBatchJson;
  assert.deepEqual([one.key_id, one.total, one.results.length, one.webhook_url, one.deliveries], [other.id, 2, 2, null, []]);
  assert.equal((await server.request('GET', '/admin/v1/batches')).status, 401, 'an API key is not the admin token');
  assert.equal((await errorOf(await server.admin('GET', '/admin/v1/batches/bat_unknown000000000'))).code, 'batch_not_found');
});

test('the admin event stream carries batch.created, batch.progress for each item, batch.completed and usage.changed', async (t) => {
  const server = await startTestServer(t);
  assert.equal((await server.request('GET', '/admin/v1/events')).status, 401);
  const controller = new AbortController();
  t.after(() => controller.abort());
  const stream = await fetch(`${server.url}/admin/v1/events`, { headers: { authorization: `Bearer ${server.adminToken}` }, signal: controller.signal });
  assert.equal(stream.status, 200);
  assert.match(stream.headers.get('content-type')!, /^text\/event-stream/);
  const events: { type: string; data: Record<string, unknown> }[] = [];
  const reading = (async () => {
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const type = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (type && data) events.push({ type, data: JSON.parse(data) as Record<string, unknown> });
        if (type === 'batch.completed') return;
      }
    }
  })();
  const accepted = (await (await postBatch(server, { requests: htmlItems(3), options: FAST, async: true })).json()) as BatchJson;
  await reading;
  const ofBatch = events.filter((event) => event.data.batch_id === accepted.batch_id);
  assert.equal(ofBatch[0]!.type, 'batch.created');
  const progress = ofBatch.filter((event) => event.type === 'batch.progress');
  assert.deepEqual(progress.map((event) => event.data.index).sort(), [0, 1, 2]);
  const counts = progress.map((event) => event.data.succeeded as number);
  assert.deepEqual([...counts].sort(), counts, 'counts never go back');
  assert.equal(counts.at(-1), 3);
  const completed = ofBatch.at(-1)!;
  assert.deepEqual(
    [completed.type, completed.data.status, completed.data.succeeded, completed.data.key_id],
    ['batch.completed', 'completed', 3, server.key.id],
  );
  const usage = events.filter((event) => event.type === 'usage.changed' && event.data.key_id === server.key.id);
  assert.deepEqual(usage.map((event) => event.data.used as number).sort(), [1, 2, 3]);
});

test('a background batch shows no more items rendering than there are render slots; the others stay queued', async (t) => {
  const server = await startTestServer(t, { renderConcurrency: 2 });
  const accepted = (await (await postBatch(server, { requests: htmlItems(8), options: { ...FAST, wait_ms: 150 }, async: true })).json()) as BatchJson;
  let mostRendering = 0;
  let sawQueuedBesideRendering = false;
  await waitForBatch(server, accepted.batch_id, undefined, (batch) => {
    const rendering = batch.results.filter((result) => result.status === 'rendering').length;
    mostRendering = Math.max(mostRendering, rendering);
    if (rendering > 0 && batch.results.some((result) => result.status === 'queued')) sawQueuedBesideRendering = true;
    return batch.status === 'completed';
  });
  assert.ok(mostRendering >= 1, 'an item was seen rendering');
  assert.ok(mostRendering <= 2, `at most 2 items rendering with 2 slots, saw ${mostRendering}`);
  assert.ok(sawQueuedBesideRendering, 'items waiting for a slot were shown queued');
});
