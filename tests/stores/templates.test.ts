// Contract of the template store (stores/templates.ts TemplateStore), run against the files
// and PostgreSQL: records round-trip, pages are newest first with the same cursors, a save
// changes what a parsed-template cache compares.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidCursorError } from '../../server/src/stores/newest-first-index.ts';
import { isSameRevision, TemplatesStore, type TemplateRecord, type TemplateStore } from '../../server/src/stores/templates.ts';
import { PgTemplateStore } from '../../server/src/stores/pg/templates.ts';
import { newId } from '../../server/src/ids.ts';
import { forEachBackend, type Backend } from './backends.ts';

async function storeOn(backend: Backend): Promise<TemplateStore> {
  return backend.kind === 'files' ? TemplatesStore.open(await backend.dataDir()) : new PgTemplateStore(backend.database().pool);
}

function template(keyId: string, second: number, overrides: Partial<TemplateRecord> = {}): TemplateRecord {
  const at = new Date(Date.UTC(2026, 2, 10, 12, 0, second, 250)).toISOString();
  return {
    id: newId('tpl'),
    keyId,
    name: `t${second}`,
    html: `<p>{{n}} ${second}</p>`,
    format: 'html',
    sampleData: { n: second, nested: { list: [1, 'two'] } },
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

forEachBackend((backend) => {
  test('a template round-trips whole; its metadata leaves the HTML out', async () => {
    const store = await storeOn(backend);
    const record = template(newId('key'), 1);
    await store.insert(record);
    assert.deepEqual(await store.read(record.id), record);
    const meta = await store.meta(record.id);
    assert.equal(meta?.keyId, record.keyId);
    assert.equal(meta?.createdMs, Date.parse(record.createdAt));
    assert.equal((meta as unknown as { html?: string }).html, undefined);
    assert.equal(await store.read(newId('tpl')), undefined);
  });

  test('pages are newest first per key and across keys, and cursors continue them', async () => {
    const store = await storeOn(backend);
    const [a, b] = [newId('key'), newId('key')];
    // Two share a creation time: the id decides, the same way in both stores.
    const records = [template(a, 1), template(a, 2), template(b, 3), template(a, 4), template(a, 4)];
    for (const record of records) await store.insert(record);
    const first = await store.page(a, 2, undefined);
    assert.equal(first.items.length, 2);
    assert.ok(first.nextCursor);
    const second = await store.page(a, 2, first.nextCursor!);
    const ids = [...first.items, ...second.items].map((meta) => meta.id);
    const expected = records
      .filter((record) => record.keyId === a)
      .sort((x, y) => (x.createdAt === y.createdAt ? (x.id < y.id ? 1 : -1) : x.createdAt < y.createdAt ? 1 : -1))
      .map((record) => record.id);
    assert.deepEqual(ids, expected);
    assert.equal(second.nextCursor, null);
    const all = await store.page(undefined, 100, undefined);
    const mine = all.items.filter((meta) => meta.keyId === a || meta.keyId === b).map((meta) => meta.id);
    assert.equal(mine.length, 5);
    assert.equal(mine[mine.length - 1], records[0]!.id);
    await assert.rejects(store.page(a, 2, 'not-a-cursor'), InvalidCursorError);
  });

  test('a Markdown template keeps its format in the record, the metadata and pages', async () => {
    const store = await storeOn(backend);
    const record = template(newId('key'), 6, { html: '# {{title}}\n\n- [x] done', format: 'markdown' });
    await store.insert(record);
    assert.deepEqual(await store.read(record.id), record);
    assert.equal((await store.meta(record.id))?.format, 'markdown');
    assert.equal((await store.page(record.keyId, 10, undefined)).items[0]?.format, 'markdown');
  });

  test('a Word template keeps its docx (base64 in the text) and its format docx', async () => {
    const store = await storeOn(backend);
    const record = template(newId('key'), 7, { html: Buffer.from('PK\u0003\u0004 a docx').toString('base64'), format: 'docx' });
    await store.insert(record);
    assert.deepEqual(await store.read(record.id), record);
    assert.equal((await store.meta(record.id))?.format, 'docx');
  });

  test('replace keeps id, owner and creation; a save makes the old metadata stale; remove deletes', async () => {
    const store = await storeOn(backend);
    const record = template(newId('key'), 5);
    await store.insert(record);
    const before = (await store.meta(record.id))!;
    const changes = { name: 'renamed', html: '# {{title}}', format: 'markdown', sampleData: null, updatedAt: '2026-03-11T00:00:00.000Z' } as const;
    const replaced = await store.replace(record.id, changes);
    assert.deepEqual(replaced, { ...record, ...changes });
    assert.equal((await store.meta(record.id))?.format, 'markdown');
    const after = (await store.meta(record.id))!;
    assert.equal(isSameRevision(before, after), false);
    assert.equal(isSameRevision(after, (await store.meta(record.id))!), true);
    assert.equal(await store.replace(newId('tpl'), { name: 'x', html: 'x', format: 'html', sampleData: null, updatedAt: record.updatedAt }), undefined);
    assert.equal(await store.remove(record.id), true);
    assert.equal(await store.remove(record.id), false);
    assert.equal(await store.meta(record.id), undefined);
  });
});
