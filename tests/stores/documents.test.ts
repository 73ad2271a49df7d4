// Contract of the document store (stores/documents.ts DocumentStore), run against the files
// and PostgreSQL (rows, bytes in chunks): round-trip, pages, what made each document, streaming
// that a delete cannot cut short, expiry once, tombstones.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DocumentStore } from '../../server/src/stores/document-store.ts';
import { DocumentsStore } from '../../server/src/stores/documents.ts';
import { DOCUMENT_SOURCES, type DocumentRecord, type StoredDocument } from '../../server/src/stores/document-record.ts';
import { readOpened } from '../helpers/pdf.ts';
import { PgDocumentStore } from '../../server/src/stores/pg/documents.ts';
import { PgPdfBlobStore } from '../../server/src/stores/pg/pdf-blobs.ts';
import { newId } from '../../server/src/ids.ts';
import { forEachBackend, type Backend } from './backends.ts';

async function storeOn(backend: Backend): Promise<DocumentStore> {
  if (backend.kind === 'files') return (await DocumentsStore.open(await backend.dataDir())).store;
  const { pool } = backend.database();
  return new PgDocumentStore(pool, new PgPdfBlobStore(pool));
}

function record(keyId: string, second: number, overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  const created = new Date(Date.UTC(2026, 2, 10, 12, 0, second, 500));
  return {
    id: newId('doc'),
    keyId,
    filename: `f${second}.pdf`,
    size: 0,
    createdAt: created.toISOString(),
    expiresAt: new Date(created.getTime() + 86_400_000).toISOString(),
    source: 'render',
    batchId: null,
    planId: 'starter',
    retention: '30d',
    state: 'stored',
    expiredAt: null,
    ...overrides,
  };
}

forEachBackend((backend) => {
  test('a document round-trips with its bytes (several chunks), as stored', async () => {
    const store = await storeOn(backend);
    const pdf = randomBytes(700 * 1024);
    const stored = await store.put(record(newId('key'), 1, { size: pdf.length, source: 'batch', batchId: 'bat_x' }), pdf);
    assert.deepEqual(await store.get(stored.id), stored);
    assert.deepEqual(await readOpened((await store.openPdf(stored))!), pdf);
    assert.equal(await store.tombstone(stored.id), undefined);
  });

  test('pages are newest first, leave out what expired by then, and continue by cursor', async () => {
    const store = await storeOn(backend);
    const key = newId('key');
    const docs: StoredDocument[] = [];
    for (let second = 1; second <= 5; second++) docs.push(await store.put(record(key, second), Buffer.from('%PDF-1.7')));
    const first = await store.page(key, 2, undefined, 0);
    const rest = await store.page(key, 10, first.nextCursor!, 0);
    assert.deepEqual(
      [...first.items, ...rest.items].map((document) => document.id),
      docs.map((document) => document.id).reverse(),
    );
    assert.equal(rest.nextCursor, null);
    const live = await store.page(key, 10, undefined, docs[2]!.expiresMs);
    assert.deepEqual(
      live.items.map((document) => document.id),
      [docs[4]!.id, docs[3]!.id],
    );
    assert.ok((await store.page(undefined, 100, undefined, 0)).items.some((document) => document.id === docs[0]!.id));
  });

  test('a read already opened gets every byte although the document is deleted meanwhile', async () => {
    const store = await storeOn(backend);
    const pdf = randomBytes(600 * 1024);
    const stored = await store.put(record(newId('key'), 2, { size: pdf.length }), pdf);
    const reading = await store.openPdf(stored);
    assert.equal(await store.remove(stored.id), true);
    assert.equal(await store.remove(stored.id), false);
    assert.equal(await store.get(stored.id), undefined);
    assert.equal(await store.openPdf(stored), undefined);
    assert.deepEqual(await readOpened(reading!), pdf);
  });

  test('the page count is kept through a page and expiry; a record without one (stored before it was recorded) reads back without one', async () => {
    const store = await storeOn(backend);
    const key = newId('key');
    const counted = await store.put(record(key, 6, { pages: 3 }), Buffer.from('%PDF-1.7 counted'));
    const older = await store.put(record(key, 7), Buffer.from('%PDF-1.7 older'));
    assert.equal((await store.get(counted.id))?.pages, 3);
    assert.deepEqual(await store.get(older.id), older);
    assert.equal('pages' in (await store.get(older.id))!, false);
    assert.deepEqual(
      (await store.page(key, 10, undefined, 0)).items.map((document) => document.pages),
      [undefined, 3],
    );
    await store.expire(counted.id, new Date());
    assert.equal((await store.tombstone(counted.id))?.pages, 3);
  });

  test('what made a document (every source) round-trips with its page count through get, a page and expiry', async () => {
    const store = await storeOn(backend);
    const key = newId('key');
    const stored: StoredDocument[] = [];
    for (const [at, source] of DOCUMENT_SOURCES.entries())
      stored.push(await store.put(record(key, 10 + at, { source, pages: at + 2 }), Buffer.from('%PDF-1.7')));
    for (const document of stored) assert.deepEqual(await store.get(document.id), document);
    assert.deepEqual(
      (await store.page(key, 10, undefined, 0)).items.map(({ source, pages }) => [source, pages]),
      DOCUMENT_SOURCES.map((source, at) => [source, at + 2]).reverse(),
    );
    const office = stored[DOCUMENT_SOURCES.indexOf('office')]!;
    await store.expire(office.id, new Date());
    assert.equal((await store.tombstone(office.id))?.source, 'office');
  });

  test("a record without a source this version knows (a sidecar written without one, a later version's value) reads as render", async () => {
    const key = newId('key');
    const kept = record(key, 20, { source: 'merge', pages: 4 });
    const aged = record(key, 21, { source: 'office', pages: 2 });
    let store: DocumentStore;
    if (backend.kind === 'files') {
      const dataDir = await backend.dataDir();
      const first = (await DocumentsStore.open(dataDir)).store;
      await first.put(kept, Buffer.from('%PDF-1.7 kept'));
      await first.put(aged, Buffer.from('%PDF-1.7 aged'));
      const root = path.join(dataDir, 'documents');
      const sidecar = path.join(root, key, `${aged.id}.json`);
      const { source: _dropped, ...older } = JSON.parse(await readFile(sidecar, 'utf8')) as DocumentRecord;
      await writeFile(sidecar, JSON.stringify(older));
      // The start-up scan reads the sidecars (no index snapshot to take them from).
      await rm(path.join(root, 'index-snapshot.json'), { force: true });
      store = (await DocumentsStore.open(dataDir)).store;
    } else {
      store = await storeOn(backend);
      await store.put(kept, Buffer.from('%PDF-1.7 kept'));
      await store.put(aged, Buffer.from('%PDF-1.7 aged'));
      await backend.database().pool.query("UPDATE documents SET source = 'a_later_kind' WHERE id = $1", [aged.id]);
    }
    assert.equal((await store.get(kept.id))?.source, 'merge');
    const read = await store.get(aged.id);
    assert.equal(read?.source, 'render');
    assert.equal(read?.pages, 2);
    assert.deepEqual(
      (await store.page(key, 10, undefined, 0)).items.map((document) => document.source),
      ['render', 'merge'],
    );
  });

  test('expiry happens once, drops the bytes, keeps a tombstone until it is dropped', async () => {
    const store = await storeOn(backend);
    const stored = await store.put(record(newId('key'), 3), Buffer.from('%PDF-1.7 x'));
    const due = await store.due(stored.expiresMs, 0);
    assert.ok(due.expired.some((document) => document.id === stored.id));
    const outcomes = await Promise.all([store.expire(stored.id, new Date()), store.expire(stored.id, new Date())]);
    assert.deepEqual(outcomes.sort(), [false, true]);
    assert.equal(await store.get(stored.id), undefined);
    assert.equal(await store.openPdf(stored), undefined);
    assert.equal((await store.tombstone(stored.id))?.state, 'expired');
    assert.ok((await store.due(0, stored.expiresMs)).tombstones.some((document) => document.id === stored.id));
    await store.dropTombstone(stored.id);
    assert.equal(await store.tombstone(stored.id), undefined);
  });
});
