import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DocumentsStore } from '../../../server/src/stores/documents.ts';
import type { DocumentRecord } from '../../../server/src/stores/document-record.ts';
import { readOpened } from '../../helpers/pdf.ts';
import { InvalidCursorError, NewestFirstIndex } from '../../../server/src/stores/newest-first-index.ts';
import { TemplatesStore } from '../../../server/src/stores/templates.ts';

async function tempDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-docstore-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const DEAD_PID = 4_194_303;
const PDF = new TextEncoder().encode('%PDF-1.7\n% test\n%%EOF\n');

function record(n: number, overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  const created = Date.UTC(2026, 4, 1) + n * 1000;
  return {
    id: `doc_test${String(n).padStart(6, '0')}`,
    keyId: 'key_a',
    filename: null,
    size: PDF.byteLength,
    createdAt: new Date(created).toISOString(),
    expiresAt: new Date(created + 86_400_000).toISOString(),
    source: 'render',
    batchId: null,
    planId: 'starter',
    retention: '1d',
    state: 'stored',
    expiredAt: null,
    ...overrides,
  };
}

function ids(items: { id: string }[]): string[] {
  return items.map((item) => item.id);
}

test('the index pages newest first behind a cursor, and a deleted item does not shift the next page', () => {
  const index = new NewestFirstIndex<{ id: string; createdMs: number }>();
  // Out of order, and three at the same millisecond (ordered by id).
  for (const [id, createdMs] of [
    ['doc_c', 3],
    ['doc_a', 1],
    ['doc_e', 5],
    ['doc_d1', 4],
    ['doc_d3', 4],
    ['doc_d2', 4],
    ['doc_b', 2],
  ] as const)
    index.insert({ id, createdMs });
  const first = index.page(3, undefined);
  assert.deepEqual(ids(first.items), ['doc_e', 'doc_d3', 'doc_d2']);
  index.remove({ id: 'doc_d2', createdMs: 4 });
  const second = index.page(3, first.nextCursor!);
  assert.deepEqual(ids(second.items), ['doc_d1', 'doc_c', 'doc_b']);
  const third = index.page(3, second.nextCursor!);
  assert.deepEqual([ids(third.items), third.nextCursor], [['doc_a'], null]);
  assert.equal(index.page(6, undefined).nextCursor, null, 'an exact last page has no next cursor');
  assert.deepEqual(ids(index.page(10, undefined, (entry) => entry.createdMs % 2 === 1).items), ['doc_e', 'doc_c', 'doc_a']);
  for (const bad of ['nonsense', Buffer.from('12.../etc/passwd').toString('base64url'), '']) {
    assert.throws(() => index.page(3, bad), InvalidCursorError, bad);
  }
});

test('documents survive a reopen, listed newest first per key and across keys', async (t) => {
  const dir = await tempDir(t);
  const { store } = await DocumentsStore.open(dir);
  for (let n = 1; n <= 5; n++) await store.put(record(n, { keyId: n % 2 ? 'key_a' : 'key_b' }), PDF);
  const { store: reopened, report } = await DocumentsStore.open(dir);
  assert.equal(report.documents, 5);
  const all = 0;
  assert.deepEqual(ids((await reopened.page(undefined, 10, undefined, all)).items), [
    'doc_test000005',
    'doc_test000004',
    'doc_test000003',
    'doc_test000002',
    'doc_test000001',
  ]);
  assert.deepEqual(ids((await reopened.page('key_a', 10, undefined, all)).items), ['doc_test000005', 'doc_test000003', 'doc_test000001']);
  assert.deepEqual(await reopened.page('key_nobody', 10, undefined, all), { items: [], nextCursor: null });
  const file = await reopened.openPdf((await reopened.get('doc_test000002'))!);
  assert.deepEqual(new Uint8Array(await readOpened(file!)), PDF);
});

test('start-up removes leftovers of interrupted writes and keeps every complete document', async (t) => {
  const dir = await tempDir(t);
  const { store } = await DocumentsStore.open(dir);
  await store.put(record(1), PDF);
  await store.put(record(2), PDF);
  const folder = path.join(dir, 'documents', 'key_a');
  // A PDF whose sidecar was never written, a sidecar whose PDF is gone, half-written temporary files.
  await writeFile(path.join(folder, 'doc_orphanpdf.pdf'), PDF);
  await writeFile(path.join(folder, 'doc_orphanjson.json'), JSON.stringify(record(3, { id: 'doc_orphanjson' })));
  await writeFile(path.join(folder, `.doc_test000009.pdf.${DEAD_PID}-1.tmp`), '%PDF-1.7 half');
  await writeFile(path.join(folder, `.doc_test000009.json.${DEAD_PID}-2.tmp`), '{"id": "doc_te');
  await writeFile(path.join(folder, `.doc_test000008.pdf.${process.pid}-7.tmp`), 'ours, from before a restart that reused the pid');

  const { store: reopened, report } = await DocumentsStore.open(dir);
  assert.deepEqual(report, {
    documents: 2,
    tombstones: 0,
    scannedFolders: 1,
    snapshotFolders: 0,
    removedTempFiles: 3,
    removedOrphanPdfs: 1,
    removedOrphanSidecars: 1,
  });
  assert.deepEqual((await readdir(folder)).sort(), ['doc_test000001.json', 'doc_test000001.pdf', 'doc_test000002.json', 'doc_test000002.pdf']);
  assert.deepEqual(ids((await reopened.page(undefined, 10, undefined, 0)).items), ['doc_test000002', 'doc_test000001']);
});

test('an expired document leaves a tombstone without bytes that survives a reopen, until it is dropped', async (t) => {
  const dir = await tempDir(t);
  const { store } = await DocumentsStore.open(dir);
  await store.put(record(1), PDF);
  await store.put(record(2), PDF);
  assert.equal(await store.expire('doc_test000001', new Date()), true);
  assert.equal(await store.expire('doc_test000001', new Date()), false, 'expires once');
  const folder = path.join(dir, 'documents', 'key_a');
  assert.deepEqual((await readdir(folder)).sort(), ['doc_test000001.json', 'doc_test000002.json', 'doc_test000002.pdf']);
  assert.equal(JSON.parse(await readFile(path.join(folder, 'doc_test000001.json'), 'utf8')).state, 'expired');

  // A crash between the tombstone and the deletion of the bytes: start-up finishes the job.
  await writeFile(path.join(folder, 'doc_test000001.pdf'), PDF);
  const { store: reopened, report } = await DocumentsStore.open(dir);
  assert.equal(report.tombstones, 1);
  assert.equal(await reopened.get('doc_test000001'), undefined);
  assert.equal((await reopened.tombstone('doc_test000001'))?.state, 'expired');
  assert.ok(!(await readdir(folder)).includes('doc_test000001.pdf'), 'the bytes of an expired document do not come back');
  await reopened.dropTombstone('doc_test000001');
  assert.equal(await (await DocumentsStore.open(dir)).store.tombstone('doc_test000001'), undefined);
});

test('due() finds documents past their expiry and tombstones past theirs', async (t) => {
  const dir = await tempDir(t);
  const { store } = await DocumentsStore.open(dir);
  const stored = await Promise.all([1, 2, 3].map((n) => store.put(record(n), PDF)));
  const due = await store.due(stored[1]!.expiresMs, 0);
  assert.deepEqual(ids(due.expired).sort(), ['doc_test000001', 'doc_test000002']);
  assert.deepEqual(due.tombstones, []);
});

test('a removed document is unlisted at once and its files are gone', async (t) => {
  const dir = await tempDir(t);
  const { store } = await DocumentsStore.open(dir);
  const document = await store.put(record(1), PDF);
  const reading = await store.openPdf(document);
  assert.equal(await store.remove(document.id), true);
  assert.equal(await store.remove(document.id), false);
  assert.deepEqual(await readdir(path.join(dir, 'documents', 'key_a')), []);
  assert.equal(await store.openPdf(document), undefined);
  // A read that had already opened the file still gets every byte.
  assert.deepEqual(new Uint8Array(await readOpened(reading!)), PDF);
});

test('templates survive a reopen, one file each; leftovers of interrupted writes are removed', async (t) => {
  const dir = await tempDir(t);
  const store = await TemplatesStore.open(dir);
  const at = (n: number) => new Date(Date.UTC(2026, 4, 1, 0, 0, n)).toISOString();
  for (let n = 1; n <= 3; n++) {
    await store.insert({
      id: `tpl_test${n}`,
      keyId: n === 3 ? 'key_b' : 'key_a',
      name: `t${n}`,
      html: `<p>{{n}} ${n}</p>`,
      format: 'html',
      sampleData: n === 1 ? { n: 1 } : null,
      createdAt: at(n),
      updatedAt: at(n),
    });
  }
  await store.replace('tpl_test1', { name: 'renamed', html: '<p>new</p>', format: 'html', sampleData: null, updatedAt: at(9) });
  assert.equal(await store.remove('tpl_test2'), true);
  await writeFile(path.join(dir, 'templates', 'key_a', `.tpl_test1.json.${DEAD_PID}-3.tmp`), '{"id": "tpl_');
  const reopened = await TemplatesStore.open(dir);
  assert.deepEqual(
    (await reopened.page(undefined, 10, undefined)).items.map((meta) => [meta.id, meta.name]),
    [
      ['tpl_test3', 't3'],
      ['tpl_test1', 'renamed'],
    ],
  );
  assert.equal((await reopened.read('tpl_test1'))?.html, '<p>new</p>');
  assert.equal(await reopened.read('tpl_test2'), undefined);
  assert.deepEqual(await readdir(path.join(dir, 'templates', 'key_a')), ['tpl_test1.json']);
});

test('start-up takes unchanged key folders from the index snapshot and reads changed ones again', async (t) => {
  const dir = await tempDir(t);
  const { store } = await DocumentsStore.open(dir);
  await store.put(record(1, { pages: 4 }), PDF);
  await store.put(record(2, { keyId: 'key_b' }), PDF);
  // Folders last changed a minute ago (a folder changed within the clock's tick of the snapshot is never trusted).
  const old = new Date(Date.now() - 60_000);
  for (const key of ['key_a', 'key_b']) await utimes(path.join(dir, 'documents', key), old, old);
  await store.saveSnapshot();
  const { store: fast, report } = await DocumentsStore.open(dir);
  assert.deepEqual([report.snapshotFolders, report.scannedFolders, report.documents], [2, 0, 2]);
  assert.deepEqual(ids((await fast.page(undefined, 10, undefined, 0)).items), ['doc_test000002', 'doc_test000001']);
  // The page count comes back from the snapshot, and a document without one stays without one.
  assert.deepEqual([(await fast.get('doc_test000001'))?.pages, (await fast.get('doc_test000002'))?.pages], [4, undefined]);
  // A change after the snapshot moves the folder's mtime: that folder is read again, the other is not.
  await fast.put(record(3, { pages: 2 }), PDF);
  await fast.remove('doc_test000001');
  const { store: after, report: again } = await DocumentsStore.open(dir);
  assert.deepEqual([again.snapshotFolders, again.scannedFolders, again.documents], [1, 1, 2]);
  assert.deepEqual(ids((await after.page(undefined, 10, undefined, 0)).items), ['doc_test000003', 'doc_test000002']);
  // Read again from its sidecar.
  assert.equal((await after.get('doc_test000003'))?.pages, 2);
});
