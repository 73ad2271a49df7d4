// The template studio's API: assets served to renders from the store (an image drawn, a font
// embedded by name), their caps, versions on every save (list, view, diff, restore, render by
// number) and the visual check reporting a changed CSS rule on the page it changes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { createCanvas } from '@napi-rs/canvas';
import { bearer, errorOf, startTestServer, type TestServer } from '../helpers/start-app.ts';
import { embeddedImages, inspectPdf } from '../helpers/pdf.ts';
import { openSansFromSparticuz } from '../helpers/open-sans.ts';
import { FAST, postBatch, waitForBatch } from '../helpers/batches.ts';
import { sendRaw, writeChunked } from '../helpers/raw-request.ts';

const LOAD = { wait_until: 'load' };

async function createTemplate(server: TestServer, body: Record<string, unknown>): Promise<string> {
  const response = await server.request('POST', '/v1/templates', body);
  assert.equal(response.status, 201, await response.clone().text());
  return ((await response.json()) as { template_id: string }).template_id;
}

function putAsset(server: TestServer, templateId: string, name: string, contentType: string | undefined, bytes: Uint8Array, admin = false): Promise<Response> {
  const authorization = `Bearer ${admin ? server.adminToken : server.key.key}`;
  const prefix = admin ? '/admin/v1' : '/v1';
  return fetch(`${server.url}${prefix}/templates/${templateId}/assets/${name}`, {
    method: 'PUT',
    headers: { authorization, ...(contentType ? { 'content-type': contentType } : {}) },
    body: new Blob([bytes as Uint8Array<ArrayBuffer>]),
  });
}

async function renderPdf(server: TestServer, body: Record<string, unknown>): Promise<Uint8Array> {
  const response = await server.render({ options: LOAD, ...body });
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, Buffer.from(bytes.subarray(0, 300)).toString());
  return bytes;
}

function redSquarePng(size: number): Uint8Array {
  const canvas = createCanvas(size, size);
  const context = canvas.getContext('2d');
  context.fillStyle = '#d00';
  context.fillRect(0, 0, size, size);
  return new Uint8Array(canvas.toBuffer('image/png'));
}

test('template assets: uploaded, listed, served to renders by relative name, capped', { timeout: 180_000 }, async (t) => {
  const server = await startTestServer(t);

  await t.test('an image asset named by <img src> is drawn in the PDF; without it only the broken-image icon is', async () => {
    const id = await createTemplate(server, { name: 'logo', html: '<p>Logo:</p><img src="logo.png" style="width:120px">' });
    const broken = await embeddedImages(await renderPdf(server, { template_id: id }));
    assert.ok(!broken.some((image) => image.width === 37), JSON.stringify(broken));
    const put = await putAsset(server, id, 'logo.png', 'image/png', redSquarePng(37));
    assert.equal(put.status, 200, await put.clone().text());
    assert.deepEqual(Object.keys(await put.json()).sort(), ['content_type', 'name', 'size', 'updated_at']);
    const images = await embeddedImages(await renderPdf(server, { template_id: id }));
    assert.deepEqual(images, [{ width: 37, height: 37 }], 'the uploaded PNG, at its own pixel size');
  });

  await t.test('a font asset, named by url() in a stylesheet asset (relative to the stylesheet), is embedded by its name', async () => {
    const css = "@font-face { font-family: 'Brand'; src: url(../fonts/OpenSans.ttf); } p { font-family: 'Brand'; }";
    const id = await createTemplate(server, { name: 'font', html: `<link rel="stylesheet" href="css/site.css"><p>Branded text</p>` });
    assert.equal((await putAsset(server, id, 'css/site.css', 'text/css', Buffer.from(css))).status, 200);
    const before = (await inspectPdf(await renderPdf(server, { template_id: id }))).fonts.map((font) => font.name);
    assert.ok(!before.some((name) => name.startsWith('OpenSans')), `no Open Sans before the font is uploaded: ${before.join(', ')}`);
    assert.equal((await putAsset(server, id, 'fonts/OpenSans.ttf', 'font/ttf', await openSansFromSparticuz())).status, 200);
    const after = (await inspectPdf(await renderPdf(server, { template_id: id }))).fonts.map((font) => font.name);
    assert.ok(
      after.some((name) => name.startsWith('OpenSans')),
      after.join(', '),
    );
    const list = (await (await server.request('GET', `/v1/templates/${id}/assets`)).json()) as { data: { name: string; content_type: string }[] };
    assert.deepEqual(
      list.data.map((asset) => [asset.name, asset.content_type]),
      [
        ['css/site.css', 'text/css'],
        ['fonts/OpenSans.ttf', 'font/ttf'],
      ],
    );
  });

  await t.test('GET returns the bytes with their type; DELETE removes; another key sees 404', async () => {
    const id = await createTemplate(server, { name: 'bytes', html: '<p>x</p>' });
    const bytes = redSquarePng(5);
    assert.equal((await putAsset(server, id, 'a.png', 'image/png', bytes, true)).status, 200, 'the admin may upload too');
    const got = await server.request('GET', `/v1/templates/${id}/assets/a.png`);
    assert.equal(got.headers.get('content-type'), 'image/png');
    assert.deepEqual(new Uint8Array(await got.arrayBuffer()), bytes);
    const other = await server.createKey('starter');
    assert.equal((await errorOf(await server.request('GET', `/v1/templates/${id}/assets`, undefined, bearer(other)))).code, 'template_not_found');
    assert.equal((await server.request('DELETE', `/v1/templates/${id}/assets/a.png`)).status, 204);
    assert.equal((await errorOf(await server.request('GET', `/v1/templates/${id}/assets/a.png`))).code, 'not_found');
    assert.equal((await errorOf(await server.request('DELETE', `/v1/templates/${id}/assets/a.png`))).code, 'not_found');
  });

  await t.test('bad names and a missing Content-Type are 400; past the caps 413', async () => {
    const id = await createTemplate(server, { name: 'caps', html: '<p>x</p>' });
    assert.equal((await errorOf(await putAsset(server, id, '.hidden', 'text/css', Buffer.from('x')))).code, 'invalid_request');
    assert.equal((await errorOf(await putAsset(server, id, 'a%2F..%2Fb', 'text/css', Buffer.from('x')))).code, 'invalid_request');
    assert.equal((await errorOf(await putAsset(server, id, 'a.css', undefined, Buffer.from('x')))).status, 400);
    const five = new Uint8Array(5 * 1024 * 1024);
    assert.deepEqual(
      await errorOf(await putAsset(server, id, 'big.bin', 'application/octet-stream', new Uint8Array(five.byteLength + 1))).then((e) => [e.status, e.code]),
      [413, 'payload_too_large'],
    );
    for (const name of ['1.bin', '2.bin', '3.bin', '4.bin']) assert.equal((await putAsset(server, id, name, 'application/octet-stream', five)).status, 200);
    const over = await errorOf(await putAsset(server, id, '5.bin', 'application/octet-stream', new Uint8Array(1)));
    assert.deepEqual([over.status, over.code], [413, 'payload_too_large']);
    assert.equal(
      (await putAsset(server, id, '4.bin', 'application/octet-stream', new Uint8Array(1))).status,
      200,
      'replacing an asset counts its new size only',
    );
  });

  await t.test('a chunked upload past the asset cap gets a 413 the client can read, on a connection that stays usable', async (t) => {
    const id = await createTemplate(server, { name: 'chunked', html: '<p>x</p>' });
    const { port } = new URL(server.url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    t.after(() => agent.destroy());
    const headers = { ...bearer(server.key), 'content-type': 'application/octet-stream' };
    const answer = await sendRaw(agent, port, 'PUT', `/v1/templates/${id}/assets/huge.bin`, headers, (req) => writeChunked(req, 7));
    assert.deepEqual([answer.status, JSON.parse(answer.body).code], [413, 'payload_too_large']);
    const next = await sendRaw(agent, port, 'GET', '/health', {});
    assert.equal(next.status, 200);
    assert.equal(next.socket, answer.socket, 'the kept-alive connection was reused');
  });

  await t.test('deleting the template deletes its assets and versions', async () => {
    const id = await createTemplate(server, { name: 'gone', html: '<p>x</p>' });
    assert.equal((await putAsset(server, id, 'a.css', 'text/css', Buffer.from('p{}'))).status, 200);
    assert.equal((await server.request('DELETE', `/v1/templates/${id}`)).status, 204);
    assert.equal(existsSync(path.join(server.dataDir, 'template-assets', id)), false);
    assert.equal(existsSync(path.join(server.dataDir, 'template-versions', id)), false);
  });
});

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
  const { packArchive } = await import('../../server/src/services/tar-archive.ts');
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
