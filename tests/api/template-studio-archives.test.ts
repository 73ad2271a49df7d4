// The template studio's archives: a template exported and imported with its assets as one archive,
// what is not an archive refused before anything is stored, and the OpenAPI for raw bodies.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, errorOf, startTestServer } from '../helpers/start-app.ts';
import { embeddedImages } from '../helpers/pdf.ts';
import { LOAD, createTemplate, putAsset, redSquarePng } from '../helpers/template-studio.ts';

test('export and import: a template travels with its assets as one archive', { timeout: 180_000 }, async (t) => {
  const server = await startTestServer(t);
  const id = await createTemplate(server, { name: 'Travelling', html: '<p>Hello {{who}}</p><img src="img/logo.png">', sample_data: { who: 'Ada' } });
  assert.equal((await putAsset(server, id, 'img/logo.png', 'image/png', redSquarePng(23))).status, 200);
  assert.equal((await putAsset(server, id, 'style.css', 'text/css', Buffer.from('p { color: red }'))).status, 200);

  const exported = await server.request('GET', `/v1/templates/${id}/export`);
  assert.equal(exported.status, 200);
  assert.equal(exported.headers.get('content-type'), 'application/gzip');
  assert.match(exported.headers.get('content-disposition') ?? '', /attachment; filename="Travelling\.quire-template\.tar\.gz"/);
  const archive = new Uint8Array(await exported.arrayBuffer());

  // Imported by another key: a new template with the same HTML, data and assets, at version 1.
  const other = await server.createKey('starter');
  const imported = await fetch(`${server.url}/v1/templates/import`, {
    method: 'POST',
    headers: { ...bearer(other), 'content-type': 'application/gzip' },
    body: new Blob([archive as Uint8Array<ArrayBuffer>]),
  });
  assert.equal(imported.status, 201, await imported.clone().text());
  const copy = (await imported.json()) as { template_id: string; name: string; html: string; sample_data: unknown };
  assert.notEqual(copy.template_id, id);
  assert.deepEqual([copy.name, copy.html, copy.sample_data], ['Travelling', '<p>Hello {{who}}</p><img src="img/logo.png">', { who: 'Ada' }]);
  const assets = (await (await server.request('GET', `/v1/templates/${copy.template_id}/assets`, undefined, bearer(other))).json()) as {
    data: { name: string; content_type: string; size: number }[];
  };
  assert.deepEqual(
    assets.data.map((asset) => [asset.name, asset.content_type]),
    [
      ['img/logo.png', 'image/png'],
      ['style.css', 'text/css'],
    ],
  );
  const versions = (await (await server.request('GET', `/v1/templates/${copy.template_id}/versions`, undefined, bearer(other))).json()) as {
    data: { version: number; created_by: string }[];
  };
  assert.deepEqual(
    versions.data.map((v) => [v.version, v.created_by]),
    [[1, other.id]],
  );
  const pdf = await server.render({ template_id: copy.template_id, options: LOAD }, bearer(other));
  assert.deepEqual(await embeddedImages(new Uint8Array(await pdf.arrayBuffer())), [{ width: 23, height: 23 }]);
  const reference = await server.admin('GET', `/admin/v1/templates/${copy.template_id}/versions/1/reference`);
  assert.deepEqual(
    await embeddedImages(new Uint8Array(await reference.arrayBuffer())),
    [{ width: 23, height: 23 }],
    'the first version’s reference was rendered with the imported assets',
  );

  // The admin imports for a key named by key_id.
  const admin = await fetch(`${server.url}/admin/v1/templates/import?key_id=${other.id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.adminToken}` },
    body: new Blob([archive as Uint8Array<ArrayBuffer>]),
  });
  assert.equal(admin.status, 201);
  assert.equal(((await admin.json()) as { key_id: string }).key_id, other.id);
});

test('import refuses what is not a template archive, before storing anything', { timeout: 60_000 }, async (t) => {
  const server = await startTestServer(t);
  const post = (body: Uint8Array) =>
    fetch(`${server.url}/v1/templates/import`, { method: 'POST', headers: bearer(server.key), body: new Blob([body as Uint8Array<ArrayBuffer>]) });
  const { packArchive } = await import('../../server/src/services/templates/tar-archive.ts');
  const manifest = (fields: Record<string, unknown>) =>
    packArchive([
      {
        name: 'manifest.json',
        bytes: Buffer.from(JSON.stringify({ format: 'quire-template/1', name: 'x', html: '<p>x</p>', sample_data: null, assets: [], ...fields })),
      },
    ]);
  for (const [body, why] of [
    [Buffer.from('not gzip'), 'not gzip'],
    [packArchive([{ name: 'other.txt', bytes: Buffer.from('x') }]), 'no manifest'],
    [manifest({ format: 'zip' }), 'wrong format'],
    [manifest({ html: '{{#open}}' }), 'template syntax error'],
    [manifest({ assets: [{ name: 'a.png', content_type: 'image/png', file: 'assets/0' }] }), 'asset missing from the archive'],
    [manifest({ assets: [{ name: '../a.png', content_type: 'image/png', file: 'manifest.json' }] }), 'bad asset name'],
  ] as const) {
    const answer = await errorOf(await post(body));
    assert.deepEqual([answer.status, answer.code], [400, 'invalid_request'], `${why}: ${answer.detail}`);
  }
  const bigAsset = packArchive([
    {
      name: 'manifest.json',
      bytes: Buffer.from(
        JSON.stringify({
          format: 'quire-template/1',
          name: 'x',
          html: '<p>x</p>',
          sample_data: null,
          assets: [{ name: 'a.bin', content_type: 'application/octet-stream', file: 'assets/0' }],
        }),
      ),
    },
    { name: 'assets/0', bytes: new Uint8Array(5 * 1024 * 1024 + 1) },
  ]);
  assert.equal((await errorOf(await post(bigAsset))).status, 413);
  const list = (await (await server.request('GET', '/v1/templates')).json()) as { data: unknown[] };
  assert.equal(list.data.length, 0, 'nothing was stored');
});

test('OpenAPI documents the raw bodies of asset uploads and imports, and which JSON bodies may be left out', async (t) => {
  const server = await startTestServer(t);
  const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { requestBody?: { required: boolean; content: Record<string, unknown> } }>>;
  };
  assert.equal(document.paths['/admin/v1/templates/{template_id}/check']!.post!.requestBody!.required, false);
  assert.equal(document.paths['/v1/pdf']!.post!.requestBody!.required, true);
  // A body that may be left out is read as {} when absent (so the template is looked up), yet a
  // body that is present must still be JSON.
  assert.equal((await errorOf(await server.admin('POST', '/admin/v1/templates/tpl_missing/check'))).code, 'template_not_found');
  const notJson = await server.requestWithoutKey('POST', '/admin/v1/templates/tpl_missing/check', 'x', {
    authorization: `Bearer ${server.adminToken}`,
    'content-type': 'text/plain',
  });
  assert.equal((await errorOf(notJson)).code, 'invalid_request');
  assert.equal((await errorOf(await server.request('POST', '/v1/pdf'))).code, 'invalid_request', 'a required body stays required');
  assert.deepEqual(Object.keys(document.paths['/v1/templates/{template_id}/assets/{name}']!.put!.requestBody!.content), ['*/*']);
  assert.deepEqual(Object.keys(document.paths['/v1/templates/import']!.post!.requestBody!.content), ['application/gzip']);
  assert.ok(document.paths['/admin/v1/templates/{template_id}/check']!.post);
});
