// Contract of the template assets store (stores/template-assets.ts), run against the files and
// PostgreSQL: put, replace, list in name order, read the bytes, the admit check, remove.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FileTemplateAssetsStore, type StoredAsset, type TemplateAssetsStore } from '../../server/src/stores/template-assets.ts';
import { PgTemplateAssetsStore } from '../../server/src/stores/pg/template-assets.ts';
import { newId } from '../../server/src/ids.ts';
import { forEachBackend, type Backend } from './backends.ts';

async function storeOn(backend: Backend): Promise<TemplateAssetsStore> {
  return backend.kind === 'files' ? FileTemplateAssetsStore.open(await backend.dataDir()) : new PgTemplateAssetsStore(backend.database().pool);
}

function asset(name: string, text: string): StoredAsset {
  const bytes = new TextEncoder().encode(text);
  return { meta: { name, contentType: 'text/css', size: bytes.byteLength, updatedAt: '2026-03-10T12:00:00.000Z' }, bytes };
}

forEachBackend((backend) => {
  test('assets are put, replaced, listed by name and read back with their bytes', async () => {
    const store = await storeOn(backend);
    const template = newId('tpl');
    await store.put(template, asset('css/b.css', 'b'));
    await store.put(template, asset('a.css', 'a'));
    await store.put(template, asset('css/b.css', 'b, again'));
    assert.deepEqual(
      (await store.list(template)).map((meta) => [meta.name, meta.size]),
      [
        ['a.css', 1],
        ['css/b.css', 8],
      ],
    );
    const read = (await store.read(template, 'css/b.css'))!;
    assert.equal(new TextDecoder().decode(read.bytes), 'b, again');
    assert.deepEqual(read.meta, asset('css/b.css', 'b, again').meta);
    assert.equal(await store.read(template, 'missing.css'), undefined);
    assert.deepEqual(await store.list(newId('tpl')), []);
  });

  test('admit sees the other assets and can refuse; remove and removeAll delete', async () => {
    const store = await storeOn(backend);
    const template = newId('tpl');
    await store.put(template, asset('one.css', '1'));
    let seen: string[] = [];
    await assert.rejects(
      store.put(template, asset('two.css', '2'), (others) => {
        seen = others.map((meta) => meta.name);
        throw new Error('over the cap');
      }),
      /over the cap/,
    );
    assert.deepEqual(seen, ['one.css']);
    assert.deepEqual(
      (await store.list(template)).map((meta) => meta.name),
      ['one.css'],
    );
    await store.put(template, asset('two.css', '2'));
    assert.equal(await store.remove(template, 'one.css'), true);
    assert.equal(await store.remove(template, 'one.css'), false);
    await store.removeAll(template);
    assert.deepEqual(await store.list(template), []);
  });
});
