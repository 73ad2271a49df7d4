// Start-up settling of batch items that a crash caught "rendering" (services/batches/items.ts),
// one case per moment the crash could have come: before the document was stored, between the
// document and its charge, after the charge. Real batch store and usage meter on memory files;
// documents and keys are fakes.

import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UsageMeter, type UsageFile } from '../../../../server/src/accounts/usage.ts';
import type { Plan } from '../../../../server/src/accounts/plans.ts';
import { EventBus } from '../../../../server/src/events.ts';
import { createLogger } from '../../../../server/src/logger.ts';
import { DEFAULT_PDF_OPTIONS } from '../../../../server/src/render/pdf-options.ts';
import { BatchItems, chargeTag, type BatchItemsDeps } from '../../../../server/src/services/batches/items.ts';
import type { DocumentsService } from '../../../../server/src/services/accounts/documents.ts';
import type { KeysService } from '../../../../server/src/services/accounts/keys.ts';
import type { RenderService } from '../../../../server/src/services/render/render.ts';
import { FileBatchStore } from '../../../../server/src/stores/batches.ts';
import type { BatchItemStatus, BatchRecord } from '../../../../server/src/stores/batch-store.ts';

const NOW = new Date('2026-03-10T12:00:00Z');

function plan(monthlyDocuments: number): Plan {
  return { id: 'test', name: 'Test', monthlyDocuments, retention: '1d', retentionSeconds: 86_400, batchMaxItems: 100, concurrency: 1 };
}

/** Usage files in memory, with their charge tags. */
function memoryUsage(initial: { used: number; charges: string[] }) {
  const files = new Map<string, { used: number; charges: string[] }>([['key_a/2026-03', initial]]);
  const open = async (accountId: string, month: string): Promise<UsageFile> => {
    const saved = files.get(`${accountId}/${month}`) ?? { used: 0, charges: [] };
    return {
      used: saved.used,
      charges: saved.charges,
      async save(used: number, _at: Date, charges: readonly string[] = []) {
        files.set(`${accountId}/${month}`, { used, charges: [...charges] });
      },
    };
  };
  return { open, file: () => files.get('key_a/2026-03')! };
}

async function setUp(t: TestContext, options: { statuses: BatchItemStatus[]; stored: number[]; charged: number[]; used: number; limit: number }) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-recovery-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const { store } = await FileBatchStore.open(dataDir);
  const batch: BatchRecord = {
    id: 'bat_recovery0000000',
    keyId: 'key_a',
    mode: 'async',
    status: 'processing',
    createdAt: NOW.toISOString(),
    completedAt: null,
    expiresAt: new Date(NOW.getTime() + 86_400_000).toISOString(),
    webhook: null,
    items: options.statuses.map((status, index) => ({
      index,
      status,
      documentId: `doc_item${index}`,
      filename: null,
      error: null,
      startedAt: status === 'queued' ? null : NOW.toISOString(),
      finishedAt: status === 'succeeded' ? NOW.toISOString() : null,
    })),
  };
  await store.create(
    batch,
    options.statuses.map(() => ({ html: '<p>x</p>', options: DEFAULT_PDF_OPTIONS })),
  );
  const stored = new Set(options.stored.map((index) => `doc_item${index}`));
  const discarded: string[] = [];
  const usage = memoryUsage({ used: options.used, charges: options.charged.map((index) => chargeTag(batch.id, index)) });
  const meter = new UsageMeter(usage.open, () => NOW);
  const items = new BatchItems({
    store,
    render: {} as RenderService,
    transform: {} as BatchItemsDeps['transform'],
    keys: { accountById: async (keyId: string) => ({ keyId, name: 'a', plan: plan(options.limit), autoStore: false }) } as unknown as KeysService,
    meter,
    documents: {
      isStored: (id: string) => stored.has(id),
      discard: async (id: string) => void discarded.push(id),
    } as unknown as DocumentsService,
    events: new EventBus(),
    onCompleted: () => undefined,
    log: createLogger('silent'),
    now: () => NOW,
  });
  return { batch, store, items, meter, usage, discarded };
}

test('an item caught rendering without a stored document is queued again, nothing charged', async (t) => {
  const { batch, items, usage } = await setUp(t, { statuses: ['rendering', 'queued'], stored: [], charged: [], used: 4, limit: 10 });
  assert.deepEqual(await items.recover(batch), [0, 1]);
  assert.deepEqual(
    batch.items.map((item) => item.status),
    ['queued', 'queued'],
  );
  assert.equal(usage.file().used, 4);
});

test('an item whose document and charge are both on disk is marked succeeded without a second charge', async (t) => {
  const { batch, items, usage, store } = await setUp(t, { statuses: ['succeeded', 'rendering', 'queued'], stored: [0, 1], charged: [1], used: 5, limit: 10 });
  assert.deepEqual(await items.recover(batch), [2]);
  assert.deepEqual(
    batch.items.map((item) => item.status),
    ['succeeded', 'succeeded', 'queued'],
  );
  assert.equal(usage.file().used, 5, 'not charged again');
  await store.flush();
  const { store: reopened } = await FileBatchStore.open(path.dirname(store.root));
  assert.deepEqual(
    (await reopened.get(batch.id))!.items.map((item) => item.status),
    ['succeeded', 'succeeded', 'queued'],
    'the settled state is on disk',
  );
});

test('an item whose document is stored but whose charge never landed is charged once now, with its tag', async (t) => {
  const { batch, items, usage } = await setUp(t, { statuses: ['rendering', 'rendering'], stored: [0, 1], charged: [0], used: 7, limit: 10 });
  assert.deepEqual(await items.recover(batch), []);
  assert.deepEqual(
    batch.items.map((item) => item.status),
    ['succeeded', 'succeeded'],
  );
  assert.equal(usage.file().used, 8, 'exactly the missing charge');
  assert.ok(usage.file().charges.includes(chargeTag(batch.id, 1)), 'the charge went to disk with its tag, for a crash right after');
  assert.equal(batch.status, 'completed', 'nothing left to render: the batch completes');
});

test('an uncharged stored item that no longer fits the allowance is taken back and fails with quota_exceeded', async (t) => {
  const { batch, items, usage, discarded } = await setUp(t, { statuses: ['rendering'], stored: [0], charged: [], used: 3, limit: 3 });
  await items.recover(batch);
  assert.deepEqual([batch.items[0]!.status, batch.items[0]!.error?.code], ['failed', 'quota_exceeded']);
  assert.deepEqual(discarded, ['doc_item0']);
  assert.equal(usage.file().used, 3);
});

test('charge tags are written with the count, found again after a reopen, and dropped once settled', async () => {
  const usage = memoryUsage({ used: 0, charges: [] });
  const meter = new UsageMeter(usage.open, () => NOW);
  await (await meter.reserve('key_a', plan(10))).commit('bat_x:0');
  await (await meter.reserve('key_a', plan(10))).commit();
  assert.deepEqual(usage.file(), { used: 2, charges: ['bat_x:0'] });
  const reopened = new UsageMeter(usage.open, () => NOW);
  assert.equal(await reopened.wasCharged('key_a', 'bat_x:0', '2026-03'), true);
  assert.equal(await reopened.wasCharged('key_a', 'bat_x:1', '2026-03'), false);
  assert.equal(await reopened.wasCharged('key_a', 'bat_x:0', '2026-02'), true, 'months from the start on are searched');
  await reopened.settleCharges('key_a', ['bat_x:0']);
  await (await reopened.reserve('key_a', plan(10))).commit();
  assert.deepEqual(usage.file(), { used: 3, charges: [] });
});
