// Contract of a render's unit of work (stores/render-commit.ts): the copy and the charge are
// committed both or neither, on the files and in PostgreSQL (one transaction).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageMeter, type UsageLedger } from '../../server/src/accounts/usage.ts';
import type { DocumentStore } from '../../server/src/stores/document-store.ts';
import { DocumentsStore } from '../../server/src/stores/documents.ts';
import type { DocumentRecord } from '../../server/src/stores/document-record.ts';
import { fileRenderCommit, type RenderCommit } from '../../server/src/stores/render-commit.ts';
import { UsageStore } from '../../server/src/stores/usage.ts';
import { PgDocumentStore } from '../../server/src/stores/pg/documents.ts';
import { PgPdfBlobStore } from '../../server/src/stores/pg/pdf-blobs.ts';
import { pgRenderCommit } from '../../server/src/stores/pg/render-commit.ts';
import { PgUsageLedger } from '../../server/src/stores/pg/usage-ledger.ts';
import { PgBatchStore } from '../../server/src/stores/pg/batches.ts';
import { LeaseLostError, type BatchRecord } from '../../server/src/stores/batch-store.ts';
import { DEFAULT_PDF_OPTIONS } from '../../server/src/render/pdf-options.ts';
import { newId } from '../../server/src/ids.ts';
import { forEachBackend, type Backend } from './backends.ts';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const ONE = { id: 'one', monthlyDocuments: 1 };

async function unitOn(backend: Backend): Promise<{ ledger: UsageLedger; documents: DocumentStore; commit: RenderCommit }> {
  if (backend.kind === 'files') {
    const dataDir = await backend.dataDir();
    const usage = new UsageStore(dataDir);
    const { store: documents } = await DocumentsStore.open(dataDir);
    const meter = new UsageMeter(
      (accountId, month) => usage.open(accountId, month),
      () => NOW,
    );
    return { ledger: meter, documents, commit: fileRenderCommit(documents, meter) };
  }
  const { pool } = backend.database();
  const ledger = new PgUsageLedger(pool, () => NOW);
  const documents = new PgDocumentStore(pool, new PgPdfBlobStore(pool));
  return { ledger, documents, commit: pgRenderCommit(pool, documents, ledger, new PgBatchStore(pool)) };
}

function record(keyId: string, id = newId('doc')): DocumentRecord {
  return {
    id,
    keyId,
    filename: null,
    size: 8,
    createdAt: NOW.toISOString(),
    expiresAt: '2026-04-10T12:00:00.000Z',
    source: 'render',
    batchId: null,
    planId: 'one',
    retention: '30d',
    state: 'stored',
    expiredAt: null,
  };
}

forEachBackend((backend) => {
  test('a render with a copy: the document is stored and the render counted, together', async () => {
    const { ledger, documents, commit } = await unitOn(backend);
    const key = newId('key');
    const kept = record(key);
    const { usage, document } = await commit.commit({
      reservation: await ledger.reserve(key, ONE),
      document: { record: kept, pdf: Buffer.from('%PDF-1.7') },
      chargeTag: 'bat_x:0',
    });
    assert.equal(usage.used, 1);
    assert.equal(document?.id, kept.id);
    assert.equal((await documents.get(kept.id))?.keyId, key);
    assert.equal(await ledger.wasCharged(key, 'bat_x:0', '2026-03'), true);
  });

  test('a copy that cannot be kept counts nothing and gives the reserved document back', async () => {
    const { ledger, documents, commit } = await unitOn(backend);
    const key = newId('key');
    // Files refuse an id that is not a safe file name; PostgreSQL refuses an id already taken.
    const taken = record(key);
    if (backend.kind === 'postgresql') await documents.put(taken, Buffer.from('%PDF-1.7'));
    const failing = backend.kind === 'files' ? record(key, '../escape') : { ...taken };
    await assert.rejects(
      commit.commit({ reservation: await ledger.reserve(key, ONE), document: { record: failing, pdf: Buffer.from('%PDF-1.7') }, chargeTag: 'bat_y:0' }),
    );
    assert.equal((await ledger.usage(key, ONE)).used, 0);
    assert.equal(await ledger.wasCharged(key, 'bat_y:0', '2026-03'), false);
    // The one document of the plan is free again.
    assert.equal((await commit.commit({ reservation: await ledger.reserve(key, ONE) })).usage.used, 1);
  });

  test('a stored render outside a batch: kept and counted, no charge tag left open; a copy that cannot be kept is not charged', async () => {
    const { ledger, documents, commit } = await unitOn(backend);
    const key = newId('key');
    const kept = record(key);
    const { usage } = await commit.commit({ reservation: await ledger.reserve(key, ONE), document: { record: kept, pdf: Buffer.from('%PDF-1.7') } });
    assert.equal(usage.used, 1);
    assert.equal((await documents.get(kept.id))?.keyId, key);
    // Files: charged first under "doc:<id>", dropped once stored; PostgreSQL: one transaction, no tag at all.
    assert.equal(await ledger.wasCharged(key, `doc:${kept.id}`, '2026-03'), false);
    const other = newId('key');
    const taken = record(other);
    if (backend.kind === 'postgresql') await documents.put(taken, Buffer.from('%PDF-1.7'));
    const failing = backend.kind === 'files' ? record(other, '../escape') : { ...taken };
    await assert.rejects(commit.commit({ reservation: await ledger.reserve(other, ONE), document: { record: failing, pdf: Buffer.from('%PDF-1.7') } }));
    assert.equal((await ledger.usage(other, ONE)).used, 0, 'refunded');
    assert.equal(await ledger.wasCharged(other, `doc:${failing.id}`, '2026-03'), false);
  });

  test('several holds (a merge) with a copy: all counted with the document, or none when the copy cannot be kept', async () => {
    const { ledger, documents, commit } = await unitOn(backend);
    const THREE = { id: 'three', monthlyDocuments: 3 };
    const key = newId('key');
    const kept = record(key);
    const holds = [await ledger.reserve(key, THREE), await ledger.reserve(key, THREE), await ledger.reserve(key, THREE)];
    const { usage } = await commit.commit({ reservation: holds[0]!, also: holds.slice(1), document: { record: kept, pdf: Buffer.from('%PDF-1.7') } });
    assert.equal(usage.used, 3);
    assert.equal((await documents.get(kept.id))?.keyId, key);
    const other = newId('key');
    const taken = record(other);
    if (backend.kind === 'postgresql') await documents.put(taken, Buffer.from('%PDF-1.7'));
    const failing = backend.kind === 'files' ? record(other, '../escape') : { ...taken };
    const failingHolds = [await ledger.reserve(other, THREE), await ledger.reserve(other, THREE)];
    await assert.rejects(
      commit.commit({ reservation: failingHolds[0]!, also: failingHolds.slice(1), document: { record: failing, pdf: Buffer.from('%PDF-1.7') } }),
    );
    assert.equal((await ledger.usage(other, THREE)).used, 0, 'every hold given back');
    assert.equal(
      (await commit.commit({ reservation: await ledger.reserve(other, THREE), also: [await ledger.reserve(other, THREE), await ledger.reserve(other, THREE)] }))
        .usage.used,
      3,
      'the allowance is whole again',
    );
  });
});

forEachBackend((backend) => {
  if (backend.kind !== 'postgresql') return;
  test("a batch item's render marks the item succeeded in the same transaction, and keeps and counts nothing once the batch's lease is lost", async () => {
    const { pool } = backend.database();
    const ledger = new PgUsageLedger(pool, () => NOW);
    const documents = new PgDocumentStore(pool, new PgPdfBlobStore(pool));
    const batches = new PgBatchStore(pool);
    const commit = pgRenderCommit(pool, documents, ledger, batches);
    const key = newId('key');
    const batch: BatchRecord = {
      id: newId('bat'),
      keyId: key,
      mode: 'async',
      status: 'processing',
      createdAt: NOW.toISOString(),
      completedAt: null,
      expiresAt: '2026-04-10T12:00:00.000Z',
      webhook: null,
      items: [0, 1].map((index) => ({
        index,
        status: 'rendering',
        documentId: newId('doc'),
        filename: null,
        error: null,
        startedAt: NOW.toISOString(),
        finishedAt: null,
      })),
    };
    await batches.create(batch, [
      { html: '<p>a</p>', options: DEFAULT_PDF_OPTIONS },
      { html: '<p>b</p>', options: DEFAULT_PDF_OPTIONS },
    ]);
    const TWO = { id: 'two', monthlyDocuments: 2 };
    const first = { ...record(key, batch.items[0]!.documentId), source: 'batch' as const, batchId: batch.id };
    await commit.commit({
      reservation: await ledger.reserve(key, TWO),
      document: { record: first, pdf: Buffer.from('%PDF-1.7') },
      chargeTag: `${batch.id}:0`,
      batchItem: { batchId: batch.id, index: 0 },
    });
    const stored = (await pool.query<{ record: BatchRecord }>('SELECT record FROM batches WHERE id = $1', [batch.id])).rows[0]!.record;
    assert.deepEqual(
      stored.items.map((item) => item.status),
      ['succeeded', 'rendering'],
    );
    assert.match(String(stored.items[0]!.finishedAt), /^\d{4}-\d\d-\d\dT/);
    // Another instance adopts the batch: this one's next render of it keeps and counts nothing.
    await pool.query("UPDATE batches SET lease_owner = 'someone-else' WHERE id = $1", [batch.id]);
    const second = { ...record(key, batch.items[1]!.documentId), source: 'batch' as const, batchId: batch.id };
    await assert.rejects(
      commit.commit({
        reservation: await ledger.reserve(key, TWO),
        document: { record: second, pdf: Buffer.from('%PDF-1.7') },
        chargeTag: `${batch.id}:1`,
        batchItem: { batchId: batch.id, index: 1 },
      }),
      LeaseLostError,
    );
    assert.equal(await documents.get(second.id), undefined);
    assert.equal((await ledger.usage(key, TWO)).used, 1);
    assert.equal(await ledger.wasCharged(key, `${batch.id}:1`, '2026-03'), false);
  });
});
