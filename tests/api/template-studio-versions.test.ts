// The template studio's versions on every save (list, view, diff, restore, render by number) and
// the visual check reporting a changed CSS rule on the page it changes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, errorOf, startTestServer } from '../helpers/start-app.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { FAST, postBatch, waitForBatch } from '../helpers/batches.ts';
import { createTemplate, putAsset, renderPdf } from '../helpers/template-studio.ts';

interface VersionSummary {
  version: number;
  name: string;
  created_at: string;
  created_by: string;
}

test('template versions: one per save, paged, viewed, diffed, restored, rendered by number', { timeout: 180_000 }, async (t) => {
  const server = await startTestServer(t);
  const id = await createTemplate(server, { name: 'v-one', html: '<h1>First {{x}}</h1>\n<p>same</p>', sample_data: { x: 1 } });
  assert.equal((await server.request('PUT', `/v1/templates/${id}`, { name: 'v-two', html: '<h1>Second {{x}}</h1>\n<p>same</p>' })).status, 200);
  assert.equal((await server.admin('PUT', `/admin/v1/templates/${id}`, { name: 'v-three', html: '<h1>Third {{x}}</h1>\n<p>same</p>' })).status, 200);

  await t.test('GET versions lists them newest first with who saved them, in pages', async () => {
    const first = (await (await server.request('GET', `/v1/templates/${id}/versions?limit=2`)).json()) as { data: VersionSummary[]; next_cursor: string };
    assert.deepEqual(
      first.data.map((v) => [v.version, v.name, v.created_by]),
      [
        [3, 'v-three', 'admin'],
        [2, 'v-two', server.key.id],
      ],
    );
    const second = (await (await server.request('GET', `/v1/templates/${id}/versions?limit=2&cursor=${first.next_cursor}`)).json()) as {
      data: VersionSummary[];
      next_cursor: null;
    };
    assert.deepEqual(
      second.data.map((v) => v.version),
      [1],
    );
    assert.equal(second.next_cursor, null);
    assert.equal((await errorOf(await server.request('GET', `/v1/templates/${id}/versions?cursor=bogus`))).code, 'invalid_request');
  });

  await t.test('a version is viewed whole and diffed against the current template', async () => {
    const one = (await (await server.request('GET', `/v1/templates/${id}/versions/1`)).json()) as { html: string; sample_data: unknown };
    assert.deepEqual([one.html, one.sample_data], ['<h1>First {{x}}</h1>\n<p>same</p>', { x: 1 }]);
    const diff = (await (await server.request('GET', `/v1/templates/${id}/versions/1/diff`)).json()) as Record<string, unknown>;
    assert.equal(diff.current_version, 3);
    assert.equal(diff.html_diff, '@@ -1,2 +1,2 @@\n-<h1>First {{x}}</h1>\n+<h1>Third {{x}}</h1>\n <p>same</p>');
    assert.deepEqual([diff.name_changed, diff.sample_data_changed], [true, true]);
  });

  await t.test('a render names template_version; without it the latest is used', async () => {
    assert.match((await inspectPdf(await renderPdf(server, { template_id: id, template_version: 1, data: { x: 'A' } }))).text, /First A/);
    assert.match((await inspectPdf(await renderPdf(server, { template_id: id, data: { x: 'B' } }))).text, /Third B/);
    const missing = await errorOf(await server.render({ template_id: id, template_version: 99 }));
    assert.deepEqual([missing.status, missing.code], [404, 'template_not_found']);
    assert.equal((await errorOf(await server.render({ html: '<p>x</p>', template_version: 1 }))).code, 'invalid_request');
  });

  await t.test('a batch item names template_version too', async () => {
    const response = await postBatch(server, {
      requests: [
        { template_id: id, template_version: 1, data: { x: 'D' } },
        { template_id: id, data: { x: 'E' } },
      ],
      options: FAST,
    });
    assert.ok(response.status === 200 || response.status === 202, String(response.status));
    const batch = await waitForBatch(server, ((await response.json()) as { batch_id: string }).batch_id);
    const texts = [];
    for (const result of batch.results) {
      const document = await server.request('GET', `/v1/documents/${result.document_id}`);
      texts.push((await inspectPdf(new Uint8Array(await document.arrayBuffer()))).text);
    }
    assert.match(texts[0]!, /First D/);
    assert.match(texts[1]!, /Third E/);
  });

  await t.test('restore makes an old version current as a new version', async () => {
    const restored = await server.request('POST', `/v1/templates/${id}/versions/1/restore`);
    assert.equal(restored.status, 200);
    assert.deepEqual(((await restored.json()) as { name: string }).name, 'v-one');
    const list = (await (await server.request('GET', `/v1/templates/${id}/versions?limit=1`)).json()) as { data: VersionSummary[] };
    assert.deepEqual(
      list.data.map((v) => [v.version, v.name]),
      [[4, 'v-one']],
    );
    assert.match((await inspectPdf(await renderPdf(server, { template_id: id, data: { x: 'C' } }))).text, /First C/);
  });

  await t.test('another key’s template and bad version numbers are refused', async () => {
    const other = await server.createKey('starter');
    assert.equal((await errorOf(await server.request('GET', `/v1/templates/${id}/versions`, undefined, bearer(other)))).code, 'template_not_found');
    assert.equal((await errorOf(await server.request('GET', `/v1/templates/${id}/versions/abc`))).code, 'invalid_request');
    assert.equal((await errorOf(await server.request('GET', `/v1/templates/${id}/versions/7`))).code, 'template_not_found');
    assert.equal((await server.admin('GET', `/admin/v1/templates/${id}/versions/2`)).status, 200);
  });
});

test('visual check: a changed CSS rule is reported on the page it changes', { timeout: 180_000 }, async (t) => {
  const server = await startTestServer(t);
  const pages = ['One', 'Two', 'Three'].map((word, at) => `<section class="p${at + 1}" style="break-after: page"><h1>Page ${word}</h1></section>`).join('');
  const id = await createTemplate(server, { name: 'three pages', html: `<link rel="stylesheet" href="style.css">${pages}`, sample_data: {} });
  assert.equal((await putAsset(server, id, 'style.css', 'text/css', Buffer.from('.p2 h1 { color: black; }'))).status, 200);
  // A save after the upload: version 2's reference is drawn with the stylesheet.
  assert.equal(
    (await server.request('PUT', `/v1/templates/${id}`, { name: 'three pages', html: `<link rel="stylesheet" href="style.css">${pages}`, sample_data: {} }))
      .status,
    200,
  );
  const reference = await server.admin('GET', `/admin/v1/templates/${id}/versions/2/reference`);
  assert.equal(reference.status, 200);
  assert.equal((await inspectPdf(new Uint8Array(await reference.arrayBuffer()))).pages.length, 3);

  // No body at all (a bare curl -X POST): the check's one field is optional.
  const unchanged = (await (await server.admin('POST', `/admin/v1/templates/${id}/check`)).json()) as Record<string, unknown>;
  assert.deepEqual(unchanged, { template_id: id, template_version: 2, pages: 3, changed_pages: [], max_diff_ratio: 0, verdict: 'unchanged' });

  assert.equal((await putAsset(server, id, 'style.css', 'text/css', Buffer.from('.p2 h1 { color: red; font-size: 60px; }'))).status, 200);
  const changed = (await (await server.admin('POST', `/admin/v1/templates/${id}/check`, {})).json()) as {
    changed_pages: number[];
    max_diff_ratio: number;
    verdict: string;
    pages: number;
  };
  assert.deepEqual([changed.pages, changed.changed_pages, changed.verdict], [3, [2], 'changed']);
  assert.ok(changed.max_diff_ratio > 0 && changed.max_diff_ratio < 1, String(changed.max_diff_ratio));

  const first = (await (await server.admin('POST', `/admin/v1/templates/${id}/check`, { template_version: 1 })).json()) as { pages: number };
  assert.equal(first.pages, 3, 'version 1 was checked against its own reference');
  assert.equal((await errorOf(await server.request('POST', `/admin/v1/templates/${id}/check`, {}))).code, 'unauthorized');
});
