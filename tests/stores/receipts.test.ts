// Contract of the receipt store (stores/receipts.ts ReceiptStore), run against the files and PostgreSQL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FileReceiptStore, type ReceiptRecord, type ReceiptStore } from '../../server/src/stores/receipts.ts';
import { PgReceiptStore } from '../../server/src/stores/pg/receipts.ts';
import { newId } from '../../server/src/ids.ts';
import { forEachBackend, type Backend } from './backends.ts';

async function storeOn(backend: Backend, dataDir?: string): Promise<ReceiptStore> {
  return backend.kind === 'files' ? FileReceiptStore.open(dataDir ?? (await backend.dataDir())) : new PgReceiptStore(backend.database().pool);
}

function receipt(expiresAt: string, keyId: string | null = 'key_owner'): ReceiptRecord {
  const id = newId('rcp');
  return {
    id,
    keyId,
    createdAt: '2026-05-01T10:00:00.000Z',
    expiresAt,
    body: { receipt_version: 1, id, requests: [{ url: 'https://example.com/a.png', status: 200 }], warnings: ['ü ✓'], nested: { b: 2, a: 1 } },
  };
}

const BEFORE = new Date('2026-05-01T11:00:00.000Z');

forEachBackend((backend) => {
  test('a receipt reads back whole until its expiry, and is gone after', async () => {
    const store = await storeOn(backend);
    const kept = receipt('2026-05-01T12:00:00.000Z');
    await store.put(kept);
    assert.deepEqual(await store.get(kept.id, BEFORE), kept);
    assert.equal(await store.get(kept.id, new Date('2026-05-01T12:00:00.000Z')), undefined, 'at its expiry it is gone');
    assert.equal(await store.get(newId('rcp'), BEFORE), undefined);
  });

  test('a playground receipt keeps its null owner', async () => {
    const store = await storeOn(backend);
    const anonymous = receipt('2026-05-01T12:00:00.000Z', null);
    await store.put(anonymous);
    assert.equal((await store.get(anonymous.id, BEFORE))?.keyId, null);
  });

  test('prune deletes exactly the receipts past their expiry, once', async () => {
    const store = await storeOn(backend);
    const old = receipt('2026-05-01T10:30:00.000Z');
    const fresh = receipt('2026-05-02T00:00:00.000Z');
    await store.put(old);
    await store.put(fresh);
    const pruned = await store.prune(BEFORE);
    assert.ok(pruned >= 1, 'the expired one is counted');
    assert.equal(await store.prune(BEFORE), 0, 'nothing is left to prune');
    assert.equal(await store.get(old.id, new Date('2026-05-01T10:00:00.000Z')), undefined, 'its bytes are gone, not only hidden');
    assert.deepEqual(await store.get(fresh.id, BEFORE), fresh);
  });

  test('receipts outlive a restart (the files reopen from names only; PostgreSQL from another instance)', async () => {
    const dataDir = backend.kind === 'files' ? await backend.dataDir() : undefined;
    const first = await storeOn(backend, dataDir);
    const kept = receipt('2026-05-01T12:00:00.000Z');
    await first.put(kept);
    const again = backend.kind === 'files' ? await FileReceiptStore.open(dataDir!) : new PgReceiptStore((await backend.otherInstance()).pool);
    assert.deepEqual(await again.get(kept.id, BEFORE), kept);
  });
});
