// Contract of the API key store (stores/keys.ts KeyStore), run against keys.json and PostgreSQL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeysStore, type KeyRecord, type KeyStore } from '../../server/src/stores/keys.ts';
import { encodeCursor, InvalidCursorError } from '../../server/src/stores/newest-first-index.ts';
import { PgKeyStore } from '../../server/src/stores/pg/keys.ts';
import { newId } from '../../server/src/ids.ts';
import { forEachBackend, type Backend } from './backends.ts';

async function storeOn(backend: Backend): Promise<KeyStore> {
  return backend.kind === 'files' ? KeysStore.open(await backend.dataDir()) : new PgKeyStore(backend.database().pool);
}

function record(overrides: Partial<KeyRecord> = {}): KeyRecord {
  const id = newId('key');
  return {
    id,
    name: `key ${id}`,
    planId: 'starter',
    autoStore: false,
    receipts: 'stored',
    keyHash: `hash_${id}`,
    createdAt: '2026-03-10T12:00:00.123Z',
    updatedAt: '2026-03-10T12:00:00.123Z',
    revokedAt: null,
    ...overrides,
  };
}

forEachBackend((backend) => {
  test('a key is found by its hash and by its id, exactly as inserted', async () => {
    const store = await storeOn(backend);
    const key = record({ autoStore: true });
    await store.insert(key);
    assert.deepEqual(await store.findByHash(key.keyHash!), key);
    assert.deepEqual(await store.get(key.id), key);
    assert.equal(await store.findByHash('hash_nobody'), undefined);
    assert.equal(await store.get(newId('key')), undefined);
  });

  test('changes apply to a live key; a revoked key is listed no more, found by id only, and never changes again', async () => {
    const store = await storeOn(backend);
    const [first, second] = [record({ createdAt: '2026-03-10T12:00:00.000Z' }), record({ createdAt: '2026-03-10T12:00:01.000Z' })];
    await store.insert(first, second);
    const renamed = await store.update(first.id, { name: 'renamed', planId: 'growth', updatedAt: '2026-03-11T00:00:00.000Z' });
    assert.deepEqual(renamed, { ...first, name: 'renamed', planId: 'growth', updatedAt: '2026-03-11T00:00:00.000Z' });
    await store.update(second.id, { keyHash: null, revokedAt: '2026-03-12T00:00:00.000Z', updatedAt: '2026-03-12T00:00:00.000Z' });
    assert.equal(await store.findByHash(second.keyHash!), undefined);
    assert.equal((await store.get(second.id))?.revokedAt, '2026-03-12T00:00:00.000Z');
    assert.equal(await store.update(second.id, { name: 'again' }), undefined);
    const listed = (await store.list()).map((key) => key.id);
    assert.ok(listed.includes(first.id));
    assert.ok(!listed.includes(second.id));
  });

  test('a key keeps its receipt setting, and one inserted without it reads as stored', async () => {
    const store = await storeOn(backend);
    const key = record({ receipts: 'all' });
    const { receipts: _, ...older } = record();
    await store.insert(key, older);
    assert.equal((await store.get(key.id))?.receipts, 'all');
    assert.equal((await store.get(older.id))?.receipts, 'stored');
    assert.equal((await store.update(key.id, { receipts: 'off' }))?.receipts, 'off');
    assert.equal((await store.get(key.id))?.receipts, 'off');
  });

  test('a rotated key answers to its new hash only', async () => {
    const store = await storeOn(backend);
    const key = record();
    await store.insert(key);
    await store.update(key.id, { keyHash: `hash_rotated_${key.id}` });
    assert.equal(await store.findByHash(key.keyHash!), undefined);
    assert.equal((await store.findByHash(`hash_rotated_${key.id}`))?.id, key.id);
  });

  test('live keys are paged newest first (ties by id), revoked ones left out, with the one cursor form of every store', async () => {
    const store = await storeOn(backend);
    // The newest keys of the store (the database is shared by this file's tests).
    const keys = [
      '2099-01-01T00:00:00.001Z',
      '2099-01-01T00:00:00.002Z',
      '2099-01-01T00:00:00.002Z',
      '2099-01-01T00:00:00.003Z',
      '2099-01-01T00:00:00.004Z',
    ].map((createdAt) => record({ createdAt }));
    await store.insert(...keys);
    await store.update(keys[3]!.id, { keyHash: null, revokedAt: '2099-01-02T00:00:00.000Z' });
    const [a, b, c, , e] = keys as [KeyRecord, KeyRecord, KeyRecord, KeyRecord, KeyRecord];
    const [tieFirst, tieSecond] = b.id > c.id ? [b, c] : [c, b];
    const first = await store.page(2, undefined);
    assert.deepEqual(
      first.items.map((key) => key.id),
      [e.id, tieFirst.id],
    );
    assert.equal(first.nextCursor, encodeCursor({ createdMs: Date.parse(tieFirst.createdAt), id: tieFirst.id }));
    const second = await store.page(2, first.nextCursor!);
    assert.deepEqual(
      second.items.map((key) => key.id),
      [tieSecond.id, a.id],
    );
    assert.deepEqual(second.items[1], a, 'records come whole');
    await assert.rejects(store.page(2, 'not-a-cursor'), InvalidCursorError);
  });
});
