// The template studio's assets: served to renders from the store (an image drawn, a font embedded
// by name), fetched and deleted, their names and caps, and deleted with their template.
// test-lane: own-server (reads its DATA_DIR).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { bearer, errorOf, startTestServer } from '../helpers/start-app.ts';
import { embeddedImages, inspectPdf } from '../helpers/pdf.ts';
import { openSansFromSparticuz } from '../helpers/open-sans.ts';
import { sendRaw, writeChunked } from '../helpers/raw-request.ts';
import { createTemplate, putAsset, renderPdf, redSquarePng } from '../helpers/template-studio.ts';

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
