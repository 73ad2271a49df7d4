// Contract of the preset store (stores/presets.ts PresetStore), run against the files and PostgreSQL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FilePresetStore, type PresetRecord, type PresetStore } from '../../server/src/stores/presets.ts';
import { PgPresetStore } from '../../server/src/stores/pg/presets.ts';
import { StoreReadError } from '../../server/src/stores/durable-file.ts';
import { newId } from '../../server/src/ids.ts';
import { forEachBackend, type Backend } from './backends.ts';

async function storeOn(backend: Backend, dataDir?: string): Promise<PresetStore> {
  return backend.kind === 'files' ? FilePresetStore.open(dataDir ?? (await backend.dataDir())) : new PgPresetStore(backend.database().pool);
}

function preset(keyId: string, createdAt: string, name = 'shrink'): PresetRecord {
  return {
    id: newId('pre'),
    keyId,
    name,
    steps: [
      { op: 'compress', mode: 'images', dpi: 120, quality: 70 },
      { op: 'rotate', angle: 90 },
    ],
    createdAt,
    updatedAt: createdAt,
  };
}

forEachBackend((backend) => {
  test('a preset reads back whole for its key only', async () => {
    const store = await storeOn(backend);
    const key = newId('key');
    const saved = preset(key, '2026-05-01T10:00:00.000Z');
    await store.put(saved);
    assert.deepEqual(await store.get(key, saved.id), saved);
    assert.equal(await store.get(newId('key'), saved.id), undefined, 'another key sees nothing');
    assert.equal(await store.get(key, newId('pre')), undefined);
  });

  test('list is the key’s presets oldest first; put replaces; remove deletes once', async () => {
    const store = await storeOn(backend);
    const key = newId('key');
    const later = preset(key, '2026-05-02T10:00:00.000Z', 'later');
    const earlier = preset(key, '2026-05-01T10:00:00.000Z', 'earlier');
    await store.put(later);
    await store.put(earlier);
    await store.put(preset(newId('key'), '2026-05-01T09:00:00.000Z', 'other key'));
    assert.deepEqual(
      (await store.list(key)).map((record) => record.name),
      ['earlier', 'later'],
    );
    const renamed = { ...later, name: 'renamed', steps: [{ op: 'flatten' }], updatedAt: '2026-05-03T10:00:00.000Z' };
    await store.put(renamed);
    assert.deepEqual(await store.get(key, later.id), renamed);
    assert.equal(await store.remove(newId('key'), later.id), false, 'another key cannot delete it');
    assert.equal(await store.remove(key, later.id), true);
    assert.equal(await store.remove(key, later.id), false);
    assert.deepEqual(
      (await store.list(key)).map((record) => record.name),
      ['earlier'],
    );
  });

  test('presets outlive a restart', async () => {
    const dataDir = backend.kind === 'files' ? await backend.dataDir() : undefined;
    const key = newId('key');
    const saved = preset(key, '2026-05-01T10:00:00.000Z');
    await (await storeOn(backend, dataDir)).put(saved);
    const reopened = backend.kind === 'files' ? await FilePresetStore.open(dataDir!) : new PgPresetStore((await backend.otherInstance()).pool);
    assert.deepEqual(await reopened.get(key, saved.id), saved);
  });

  test('a damaged preset file is reported by name, not replaced', { skip: backend.kind !== 'files' && 'files only' }, async () => {
    const dataDir = await backend.dataDir();
    await FilePresetStore.open(dataDir);
    const file = path.join(dataDir, 'presets', `${newId('pre')}.json`);
    await writeFile(file, '{ not json');
    await assert.rejects(FilePresetStore.open(dataDir), (error: unknown) => error instanceof StoreReadError && error.message.includes(file));
  });
});
