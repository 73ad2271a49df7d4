// Contract of the batch store (stores/batch-store.ts BatchStore), run against the files and
// PostgreSQL; then what only PostgreSQL does: leases, adoption by another instance, fenced writes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FileBatchStore } from '../../server/src/stores/batches.ts';
import { LeaseLostError, type BatchRecord, type BatchStore } from '../../server/src/stores/batch-store.ts';
import { PgBatchStore } from '../../server/src/stores/pg/batches.ts';
import { BacklogFullError } from '../../server/src/stores/batch-backlog.ts';
import { newId } from '../../server/src/ids.ts';
import { DEFAULT_PDF_OPTIONS } from '../../server/src/render/pdf-options.ts';
import { forEachBackend, type Backend } from './backends.ts';

async function storeOn(backend: Backend): Promise<BatchStore> {
  return backend.kind === 'files' ? (await FileBatchStore.open(await backend.dataDir())).store : new PgBatchStore(backend.database().pool);
}

function batch(keyId: string, overrides: Partial<BatchRecord> = {}): BatchRecord {
  const id = newId('bat');
  return {
    id,
    keyId,
    mode: 'async',
    status: 'queued',
    createdAt: '2026-03-10T12:00:00.000Z',
    completedAt: null,
    expiresAt: '2026-04-10T12:00:00.000Z',
    webhook: null,
    items: [0, 1].map((index) => ({ index, status: 'queued', documentId: newId('doc'), filename: null, error: null, startedAt: null, finishedAt: null })),
    ...overrides,
  };
}

const REQUESTS = [
  { html: '<p>a</p>', options: DEFAULT_PDF_OPTIONS },
  { html: '<p>b</p>', options: DEFAULT_PDF_OPTIONS },
  // A transform item: its PDF as base64 and its steps (a preset's, resolved when the batch was made) read back as written.
  {
    transform: {
      pdf: Buffer.from('%PDF-1.7\n').toString('base64'),
      steps: [
        { op: 'rotate' as const, angle: 90 },
        { op: 'compress' as const, mode: 'lossless' as const, dpi: 150, quality: 75 },
      ],
      preset_id: 'pre_abc123',
      options: { metadata: { title: 'Scanned' } },
    },
    options: DEFAULT_PDF_OPTIONS,
  },
];

forEachBackend((backend) => {
  test('a batch is held by the instance that created it; its saved state and requests read back', async () => {
    const store = await storeOn(backend);
    const record = batch(newId('key'));
    await store.create(record, REQUESTS);
    assert.equal(store.held(record.id), record);
    record.items[0]!.status = 'succeeded';
    record.status = 'processing';
    await Promise.all([store.save(record), store.save(record)]);
    await store.flush();
    assert.deepEqual(
      (await store.get(record.id))?.items.map((item) => item.status),
      ['succeeded', 'queued'],
    );
    assert.deepEqual(await store.requests(record.id), REQUESTS);
    await store.dropRequests(record.id);
    await assert.rejects(store.requests(record.id));
  });

  test('batches are paged newest first per key; completed ones past expiry are pruned, others kept', async () => {
    const store = await storeOn(backend);
    const key = newId('key');
    const [old, recent] = [batch(key, { createdAt: '2026-03-01T00:00:00.000Z' }), batch(key, { createdAt: '2026-03-02T00:00:00.000Z' })];
    await store.create(old, REQUESTS);
    await store.create(recent, REQUESTS);
    const first = await store.page(key, 1, undefined);
    assert.deepEqual(
      first.items.map((record) => record.id),
      [recent.id],
    );
    assert.deepEqual(
      (await store.page(key, 1, first.nextCursor!)).items.map((record) => record.id),
      [old.id],
    );
    Object.assign(old, { status: 'completed', completedAt: '2026-03-01T00:01:00.000Z', expiresAt: '2026-03-05T00:00:00.000Z' });
    await store.save(old);
    await store.release(old.id);
    assert.ok((await store.prune(Date.parse('2026-03-06T00:00:00.000Z'))) >= 1);
    assert.equal(await store.get(old.id), undefined);
    assert.equal((await store.get(recent.id))?.id, recent.id);
  });
});

// Every batch() has 2 items; REQUESTS is their JSON as stored.
const REQUEST_BYTES = Buffer.byteLength(JSON.stringify(REQUESTS));

forEachBackend((backend) => {
  test("a background batch is admitted only within the backlog caps, its key's and every key's; completing one makes room", async () => {
    const store = await storeOn(backend);
    const [key, other, third] = [newId('key'), newId('key'), newId('key')];
    const limits = { itemsPerKey: 4, items: 6, bytesPerKey: 10 * REQUEST_BYTES, bytes: 10 * REQUEST_BYTES };
    const first = batch(key);
    await store.create(first, REQUESTS, limits);
    await store.create(batch(key), REQUESTS, limits);
    const refused = batch(key);
    await assert.rejects(
      store.create(refused, REQUESTS, limits),
      (error: unknown) => error instanceof BacklogFullError && error.scope === 'key' && error.load.items === 4 && error.load.bytes === 2 * REQUEST_BYTES,
    );
    assert.equal(await store.get(refused.id), undefined, 'nothing recorded');
    // In-call batches are not counted, nor checked.
    await store.create(batch(key, { mode: 'sync' }), REQUESTS);
    await store.create(batch(other), REQUESTS, limits);
    await assert.rejects(
      store.create(batch(third), REQUESTS, limits),
      (error: unknown) => error instanceof BacklogFullError && error.scope === 'all' && error.load.items === 6,
    );
    Object.assign(first, { status: 'completed', completedAt: '2026-03-10T12:01:00.000Z' });
    await store.save(first);
    await store.flush();
    await store.create(batch(third), REQUESTS, limits);
    await assert.rejects(
      store.create(batch(key), REQUESTS, { ...limits, items: 100, bytesPerKey: 2 * REQUEST_BYTES - 1 }),
      (error: unknown) => error instanceof BacklogFullError && error.scope === 'key',
    );
  });

  test('background batches created at once, on one instance or two, never go past the backlog caps', async () => {
    const stores = [await storeOn(backend)];
    if (backend.kind === 'postgresql') stores.push(new PgBatchStore((await backend.otherInstance()).pool));
    const key = newId('key');
    const limits = { itemsPerKey: 10, items: 1000, bytesPerKey: 1e9, bytes: 1e12 };
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => stores[i % stores.length]!.create(batch(key), REQUESTS, limits)));
    assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 5, 'exactly 10 items admitted');
    for (const outcome of outcomes) if (outcome.status === 'rejected') assert.ok(outcome.reason instanceof BacklogFullError, String(outcome.reason));
    assert.equal((await stores[0]!.page(key, 100, undefined)).items.length, 5);
  });
});

test('PostgreSQL: a batch whose holder stopped renewing its lease is adopted by exactly one other instance, and the old holder can write it no more', async (t) => {
  const { startTestDatabase } = await import('../helpers/postgres.ts');
  const { openDatabase } = await import('../../server/src/stores/pg/database.ts');
  const server = await startTestDatabase({ after: (fn) => t.after(fn) });
  const databases = await Promise.all([0, 1, 2].map(() => openDatabase(server.url)));
  t.after(() => Promise.all(databases.map((database) => database.close())).then(() => undefined));
  const [dead, first, second] = databases.map((database) => new PgBatchStore(database.pool)) as [PgBatchStore, PgBatchStore, PgBatchStore];
  const record = batch(newId('key'));
  await dead.create(record, REQUESTS);
  assert.deepEqual(await first.adopt(), [], 'a live lease is left alone');
  // The holder dies: its lease runs out (here: set to the past rather than waited for).
  await databases[0]!.pool.query("UPDATE batches SET lease_expires_at = now() - interval '1 second' WHERE id = $1", [record.id]);
  const [adoptedByFirst, adoptedBySecond] = await Promise.all([first.adopt(), second.adopt()]);
  assert.deepEqual(
    [...adoptedByFirst, ...adoptedBySecond].map((adopted) => adopted.id),
    [record.id],
    'adopted once',
  );
  const [winner] = adoptedByFirst.length > 0 ? [first] : [second];
  assert.equal(winner.held(record.id)?.id, record.id);
  await assert.rejects(dead.save(record), LeaseLostError);
  assert.equal(dead.held(record.id), undefined);
  await dead.heartbeat();
  await winner.heartbeat();
  assert.equal(winner.held(record.id)?.id, record.id, 'the heartbeat keeps it');
  await winner.release(record.id);
  assert.deepEqual(
    await first
      .adopt()
      .then((a) => a.map((r) => r.id))
      .then(async (a) => [...a, ...(await second.adopt()).map((r) => r.id)]),
    [record.id],
    'released with work left: adopted again',
  );
});

test('PostgreSQL: an instance that stops hands its batches back: another adopts them at once, without waiting for the lease', async (t) => {
  const { startTestDatabase } = await import('../helpers/postgres.ts');
  const { openDatabase } = await import('../../server/src/stores/pg/database.ts');
  const server = await startTestDatabase({ after: (fn) => t.after(fn) });
  const databases = await Promise.all([0, 1].map(() => openDatabase(server.url)));
  t.after(() => Promise.all(databases.map((database) => database.close())).then(() => undefined));
  const [stopping, other] = databases.map((database) => new PgBatchStore(database.pool)) as [PgBatchStore, PgBatchStore];
  const record = batch(newId('key'));
  await stopping.create(record, REQUESTS);
  assert.deepEqual(await other.adopt(), [], 'held while its instance runs');
  await stopping.handBack();
  assert.equal(stopping.held(record.id), undefined);
  assert.deepEqual(
    (await other.adopt()).map((adopted) => adopted.id),
    [record.id],
  );
});
