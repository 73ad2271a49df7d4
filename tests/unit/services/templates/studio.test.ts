// Pure parts of the template studio: the line diff, the archive format, the editor's marks and
// completions, and the files stores of versions and assets (reopened from disk).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { unifiedDiff } from '../../../../server/src/services/templates/line-diff.ts';
import { ArchiveError, packArchive, unpackArchive } from '../../../../server/src/services/templates/tar-archive.ts';
import { dataPaths, parseSampleData, templateProblems } from '../../../../ui/src/lib/template-lint.ts';
import { FileTemplateVersionsStore } from '../../../../server/src/stores/template-versions.ts';
import { FileTemplateAssetsStore } from '../../../../server/src/stores/template-assets.ts';
import { InvalidCursorError } from '../../../../server/src/stores/newest-first-index.ts';

test('unifiedDiff shows changed lines with context, and nothing for equal texts', () => {
  assert.equal(unifiedDiff('a\nb\nc', 'a\nb\nc'), '');
  const lines = Array.from({ length: 20 }, (_, at) => `line ${at}`);
  const changed = [...lines];
  changed[10] = 'changed';
  assert.equal(
    unifiedDiff(lines.join('\n'), changed.join('\n')),
    ['@@ -8,7 +8,7 @@', ' line 7', ' line 8', ' line 9', '-line 10', '+changed', ' line 11', ' line 12', ' line 13'].join('\n'),
  );
  assert.equal(unifiedDiff('a', 'a\nb'), '@@ -1,1 +1,2 @@\n a\n+b');
});

test('archives round-trip regular files and refuse anything else', () => {
  const files = [
    { name: 'manifest.json', bytes: Buffer.from('{"x":1}') },
    { name: 'assets/0', bytes: new Uint8Array(1000).fill(7) },
    { name: 'assets/1', bytes: new Uint8Array(0) },
  ];
  assert.deepEqual(
    unpackArchive(packArchive(files), 1 << 20).map((file) => [file.name, Buffer.from(file.bytes).toString('hex')]),
    files.map((file) => [file.name, Buffer.from(file.bytes).toString('hex')]),
  );
  assert.throws(() => unpackArchive(Buffer.from('plain'), 1 << 20), ArchiveError);
  assert.throws(() => unpackArchive(packArchive(files), 1024), /more than/);
  const tar = gunzipSync(Buffer.from(packArchive([{ name: 'evil', bytes: new Uint8Array(0) }])));
  tar[156] = '2'.charCodeAt(0);
  let sum = 0;
  for (let at = 0; at < 512; at++) sum += at >= 148 && at < 156 ? 32 : tar[at]!;
  tar.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  assert.throws(() => unpackArchive(gzipSync(tar), 1 << 20), /not a regular file/);
});

test('the editor marks placeholders the sample data lacks (scoped by sections; an inverted section may name a missing value) and syntax errors where they are', () => {
  const sample = { customer: { name: 'Ada' }, items: [{ description: 'x' }] };
  const html = '{{customer.name}} {{customer.city}} {{#items}}{{description}}{{customer.name}}{{price}}{{/items}} {{! note }} {{^missing}}none{{/missing}}';
  const problems = templateProblems(html, sample);
  assert.deepEqual(
    problems.map((problem) => [problem.severity, html.slice(problem.from, problem.to)]),
    [
      ['warning', '{{customer.city}}'],
      ['warning', '{{price}}'],
    ],
  );
  assert.deepEqual(templateProblems(html, null), [], 'no sample data: nothing to compare with');
  const unclosed = '<p>\n{{#items}} open';
  const [error] = templateProblems(unclosed, sample);
  assert.equal(error!.severity, 'error');
  assert.equal(unclosed.slice(error!.from, error!.to), '{{#items}}');
  const mismatched = templateProblems('{{#a}}{{/b}}', {});
  assert.match(mismatched[0]!.message, /does not match/);
});

test('data paths for completion include nested fields and list items’ fields', () => {
  assert.deepEqual(dataPaths({ customer: { name: 'Ada', address: { city: 'London' } }, items: [{ amount: 1 }] }), [
    'amount',
    'customer',
    'customer.address',
    'customer.address.city',
    'customer.name',
    'items',
  ]);
  assert.deepEqual(dataPaths(null), []);
});

test('broken sample data JSON is located', () => {
  const text = '{"a": 1,, "b": 2}';
  const parsed = parseSampleData(text);
  assert.equal(parsed.ok, false);
  if (!parsed.ok) assert.equal(parsed.at, 8);
  assert.deepEqual(parseSampleData('  '), { ok: true, value: null });
  assert.equal(parseSampleData('[1]').ok, false);
});

test('the versions store numbers from 1, pages newest first and reads back after a reopen', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-versions-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const store = await FileTemplateVersionsStore.open(dataDir);
  const base = { templateId: 'tpl_abc', name: 'n', format: 'html' as const, sampleData: null, createdAt: '2026-01-01T00:00:00.000Z', createdBy: 'admin' };
  for (const html of ['one', 'two', 'three']) await store.append({ ...base, html });
  await store.saveReference('tpl_abc', 2, new Uint8Array([1, 2, 3]));
  const reopened = await FileTemplateVersionsStore.open(dataDir);
  const first = await reopened.page('tpl_abc', 2, undefined);
  assert.deepEqual(
    first.items.map((meta) => meta.number),
    [3, 2],
  );
  const second = await reopened.page('tpl_abc', 2, first.nextCursor!);
  assert.deepEqual([second.items.map((meta) => meta.number), second.nextCursor], [[1], null]);
  assert.equal((await reopened.read('tpl_abc', 2))?.html, 'two');
  assert.deepEqual(await reopened.readReference('tpl_abc', 2), new Uint8Array([1, 2, 3]));
  assert.equal(await reopened.readReference('tpl_abc', 1), undefined);
  await assert.rejects(reopened.page('tpl_abc', 2, 'bogus'), InvalidCursorError);
  assert.equal((await reopened.append({ ...base, html: 'four' })).number, 4);
  await reopened.removeAll('tpl_abc');
  assert.equal(await reopened.latest('tpl_abc'), undefined);
});

test('the assets store keeps names with folders, refuses through admit, and reads back after a reopen', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-assets-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const store = await FileTemplateAssetsStore.open(dataDir);
  const meta = (name: string, size: number) => ({ name, contentType: 'text/css', size, updatedAt: '2026-01-01T00:00:00.000Z' });
  await store.put('tpl_abc', { meta: meta('css/a.css', 3), bytes: Buffer.from('a{}') });
  await store.put('tpl_abc', { meta: meta('b.css', 3), bytes: Buffer.from('b{}') });
  await assert.rejects(
    store.put('tpl_abc', { meta: meta('c.css', 1), bytes: Buffer.from('c') }, () => {
      throw new Error('refused');
    }),
    /refused/,
  );
  const reopened = await FileTemplateAssetsStore.open(dataDir);
  assert.deepEqual(
    (await reopened.list('tpl_abc')).map((asset) => asset.name),
    ['b.css', 'css/a.css'],
  );
  assert.equal(Buffer.from((await reopened.read('tpl_abc', 'css/a.css'))!.bytes).toString(), 'a{}');
  assert.equal(await reopened.remove('tpl_abc', 'b.css'), true);
  assert.equal(await reopened.remove('tpl_abc', 'b.css'), false);
  assert.equal(await reopened.read('tpl_abc', 'b.css'), undefined);
});
