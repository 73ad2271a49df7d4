// The admin window's transform and presets (/admin/v1/pdf/transform, /admin/v1/pdf/presets) against
// a real server: any key's stored document or an upload, transformed in steps, neither charged nor
// kept; presets saved for a key are the ones that key applies by id.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unzipSync } from 'fflate';
import { errorOf, startTestServer, usageOf } from '../helpers/start-app.ts';
import { pageRotations, pageTexts, textPdf } from '../helpers/pdf-cli.ts';

test('admin transform and presets', async (t) => {
  const server = await startTestServer(t);
  const pdf = Buffer.from(await textPdf(['Page 1', 'Page 2', 'Page 3'])).toString('base64');
  const steps = [
    { op: 'rotate', angle: 90, pages: '1' },
    { op: 'delete', pages: '2' },
  ];

  await t.test('an upload, transformed in order, not charged', async () => {
    const before = await usageOf(server);
    const response = await server.admin('POST', '/admin/v1/pdf/transform', { pdf, steps, filename: 'turned.pdf' });
    assert.equal(response.status, 200, await response.clone().text());
    const out = new Uint8Array(await response.arrayBuffer());
    assert.deepEqual(pageTexts(out), ['Page 1', 'Page 3']);
    assert.deepEqual(pageRotations(out), [90, 0]);
    const reports = JSON.parse(response.headers.get('x-pdf-steps')!) as { op: string; pages: number }[];
    assert.deepEqual(
      reports.map((step) => [step.op, step.pages]),
      [
        ['rotate', 3],
        ['delete', 2],
      ],
    );
    assert.equal(await usageOf(server), before);
  });

  await t.test('a stored document of a key, split into a zip', async () => {
    const stored = await server.request('POST', '/v1/pdf/transform', { pdf, steps: [{ op: 'select', pages: '1-3' }], store: true, filename: 'kept.pdf' });
    const id = stored.headers.get('x-document-id')!;
    const response = await server.admin('POST', '/admin/v1/pdf/transform', { document_id: id, steps: [{ op: 'split', every: 2 }], filename: 'kept.pdf' });
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(response.headers.get('content-type'), 'application/zip');
    const parts = unzipSync(new Uint8Array(await response.arrayBuffer()));
    assert.deepEqual(Object.keys(parts).sort(), ['kept-1-2.pdf', 'kept-3.pdf']);
    assert.deepEqual(pageTexts(parts['kept-3.pdf']!), ['Page 3']);
  });

  await t.test('what would keep something is refused, naming the field', async () => {
    const split = await errorOf(await server.admin('POST', '/admin/v1/pdf/transform', { pdf, steps: [{ op: 'split', every: 1, output: 'documents' }] }));
    assert.deepEqual([split.status, split.code], [400, 'invalid_request']);
    assert.match(split.detail, /steps/);
    const store = await errorOf(await server.admin('POST', '/admin/v1/pdf/transform', { pdf, steps, store: true }));
    assert.equal(store.status, 400);
    const page = await errorOf(await server.admin('POST', '/admin/v1/pdf/transform', { pdf, steps: [{ op: 'delete', pages: '9' }] }));
    assert.equal(page.status, 400);
    assert.match(page.detail, /steps\[0\]\.pages/);
    const keyless = await errorOf(await server.requestWithoutKey('POST', '/admin/v1/pdf/transform', { pdf, steps }));
    assert.equal(keyless.status, 401);
  });

  await t.test('a preset saved for a key is listed for it and applied by that key', async () => {
    const created = await server.admin('POST', '/admin/v1/pdf/presets', { key_id: server.key.id, name: 'turn and trim', steps });
    assert.equal(created.status, 201, await created.clone().text());
    const preset = (await created.json()) as { id: string; steps: unknown[] };
    const list = (await (await server.admin('GET', `/admin/v1/pdf/presets?key_id=${server.key.id}`)).json()) as { data: { id: string }[] };
    assert.deepEqual(
      list.data.map((item) => item.id),
      [preset.id],
    );
    const applied = await server.request('POST', '/v1/pdf/transform', { pdf, preset_id: preset.id });
    assert.deepEqual(pageTexts(new Uint8Array(await applied.arrayBuffer())), ['Page 1', 'Page 3']);
    const unknownKey = await errorOf(await server.admin('POST', '/admin/v1/pdf/presets', { key_id: 'key_nosuchkey', name: 'x', steps }));
    assert.deepEqual([unknownKey.status, unknownKey.code], [400, 'invalid_request']);
    assert.equal((await server.admin('DELETE', `/admin/v1/pdf/presets/${preset.id}?key_id=${server.key.id}`)).status, 204);
    const gone = await errorOf(await server.request('POST', '/v1/pdf/transform', { pdf, preset_id: preset.id }));
    assert.equal(gone.code, 'preset_not_found');
  });
});
