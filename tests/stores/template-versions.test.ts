// Contract of the template versions store (stores/template-versions.ts), run against the files
// and PostgreSQL: numbering from 1 without gaps (also when saves race), pages newest first,
// references, removal.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidCursorError } from '../../server/src/stores/newest-first-index.ts';
import { FileTemplateVersionsStore, type TemplateVersion, type TemplateVersionsStore } from '../../server/src/stores/template-versions.ts';
import { PgTemplateVersionsStore } from '../../server/src/stores/pg/template-versions.ts';
import { newId } from '../../server/src/ids.ts';
import { forEachBackend, type Backend } from './backends.ts';

async function storeOn(backend: Backend): Promise<TemplateVersionsStore> {
  return backend.kind === 'files' ? FileTemplateVersionsStore.open(await backend.dataDir()) : new PgTemplateVersionsStore(backend.database().pool);
}

function version(templateId: string, name: string, format: TemplateVersion['format'] = 'html'): Omit<TemplateVersion, 'number'> {
  return { templateId, name, html: `<p>${name}</p>`, format, sampleData: { name }, createdAt: '2026-03-10T12:00:00.000Z', createdBy: 'key_a' };
}

forEachBackend((backend) => {
  test('versions are numbered from 1 without gaps, also when saved at once, and read back whole', async () => {
    const store = await storeOn(backend);
    const template = newId('tpl');
    assert.equal(await store.latest(template), undefined);
    const saved = await Promise.all(Array.from({ length: 5 }, (_, i) => store.append(version(template, `v${i}`))));
    assert.deepEqual(saved.map((entry) => entry.number).sort(), [1, 2, 3, 4, 5]);
    assert.equal(await store.latest(template), 5);
    const third = saved.find((entry) => entry.number === 3)!;
    assert.deepEqual(await store.read(template, 3), third);
    assert.equal(await store.read(template, 9), undefined);
  });

  test("a version keeps its template's format, in the record and the page", async () => {
    const store = await storeOn(backend);
    const template = newId('tpl');
    await store.append(version(template, 'html'));
    const markdown = await store.append(version(template, 'markdown', 'markdown'));
    assert.deepEqual(await store.read(template, markdown.number), markdown);
    const word = await store.append(version(template, Buffer.from('a docx').toString('base64'), 'docx'));
    assert.deepEqual(await store.read(template, word.number), word);
    assert.deepEqual(
      (await store.page(template, 10, undefined)).items.map((meta) => meta.format),
      ['docx', 'markdown', 'html'],
    );
  });

  test('pages are newest first behind a cursor; references are kept per version; removeAll deletes', async () => {
    const store = await storeOn(backend);
    const template = newId('tpl');
    for (let i = 0; i < 3; i++) await store.append(version(template, `v${i}`));
    const first = await store.page(template, 2, undefined);
    assert.deepEqual(
      first.items.map((meta) => meta.number),
      [3, 2],
    );
    const rest = await store.page(template, 2, first.nextCursor!);
    assert.deepEqual([rest.items.map((meta) => meta.number), rest.nextCursor], [[1], null]);
    await assert.rejects(store.page(template, 2, 'nope'), InvalidCursorError);
    await store.saveReference(template, 2, new Uint8Array([37, 80, 68, 70]));
    assert.deepEqual(await store.readReference(template, 2), new Uint8Array([37, 80, 68, 70]));
    assert.equal(await store.readReference(template, 1), undefined);
    await store.removeAll(template);
    assert.equal(await store.latest(template), undefined);
    assert.equal(await store.read(template, 2), undefined);
  });
  test("a new version's reference is on its way, renewed by its maker, until it is saved or abandoned (PostgreSQL; the files know it in memory)", async () => {
    const store = await storeOn(backend);
    const template = newId('tpl');
    const first = await store.append(version(template, 'v1'));
    const second = await store.append(version(template, 'v2'));
    assert.equal(await store.isReferenceComing(template, first.number), backend.kind === 'postgresql');
    await store.saveReference(template, first.number, new Uint8Array([37, 80, 68, 70]));
    assert.equal(await store.isReferenceComing(template, first.number), false, 'stored');
    await store.abandonReference(template, second.number);
    assert.equal(await store.isReferenceComing(template, second.number), false, 'abandoned');
    assert.equal(await store.readReference(template, second.number), undefined);
    // Its maker renews the mark while it works; a renewal never revives a stored or abandoned one.
    const third = await store.append(version(template, 'third'));
    if (backend.kind === 'postgresql') {
      // Its lease run out (as when its maker waited that long for a slot): the renewal starts it again.
      const expire = "UPDATE template_versions SET reference_due_by = now() - interval '1 second' WHERE template_id = $1 AND number = $2";
      await backend.database().pool.query(expire, [template, third.number]);
      assert.equal(await store.isReferenceComing(template, third.number), false, 'lease run out');
    }
    await store.renewReference(template, third.number);
    assert.equal(await store.isReferenceComing(template, third.number), backend.kind === 'postgresql', 'renewed');
    for (const done of [first, second]) {
      await store.renewReference(template, done.number);
      assert.equal(await store.isReferenceComing(template, done.number), false, `version ${done.number} stays done`);
    }
  });
});
