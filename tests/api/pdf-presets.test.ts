// /v1/pdf/presets against a real server: a key saves a sequence of steps, lists, reads, replaces
// and deletes it, and POST /v1/pdf/transform applies it by id; another key never sees it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorOf, startTestServer } from '../helpers/start-app.ts';
import { pageRotations, pageTexts, textPdf } from '../helpers/pdf-cli.ts';

interface PresetJson {
  id: string;
  name: string;
  steps: { op: string }[];
  created_at: string;
  updated_at: string;
}

test('transform presets', async (t) => {
  const server = await startTestServer(t);
  const pdf = Buffer.from(await textPdf(['Page 1', 'Page 2', 'Page 3'])).toString('base64');

  const created = await server.request('POST', '/v1/pdf/presets', {
    name: 'last two, turned',
    steps: [
      { op: 'delete', pages: '1' },
      { op: 'rotate', angle: -90 },
    ],
  });
  assert.equal(created.status, 201);
  const preset = (await created.json()) as PresetJson;
  assert.match(preset.id, /^pre_[A-Za-z0-9]+$/);
  assert.equal(created.headers.get('location'), `/v1/pdf/presets/${preset.id}`);
  assert.deepEqual(
    preset.steps.map((step) => step.op),
    ['delete', 'rotate'],
  );

  await t.test('applied by id, its steps run in order', async () => {
    const response = await server.request('POST', '/v1/pdf/transform', { pdf, preset_id: preset.id });
    assert.equal(response.status, 200, await response.clone().text());
    const out = new Uint8Array(await response.arrayBuffer());
    assert.deepEqual(pageTexts(out), ['Page 2', 'Page 3']);
    assert.deepEqual(pageRotations(out), [270, 270]);
  });

  await t.test('listed, read and replaced by its key', async () => {
    const list = (await (await server.request('GET', '/v1/pdf/presets')).json()) as { data: PresetJson[] };
    assert.deepEqual(
      list.data.map((item) => item.id),
      [preset.id],
    );
    const replaced = await server.request('PUT', `/v1/pdf/presets/${preset.id}`, { name: 'first only', steps: [{ op: 'select', pages: '1' }] });
    assert.equal(replaced.status, 200);
    const read = (await (await server.request('GET', `/v1/pdf/presets/${preset.id}`)).json()) as PresetJson;
    assert.equal(read.name, 'first only');
    assert.equal(read.created_at, preset.created_at);
    const applied = await server.request('POST', '/v1/pdf/transform', { pdf, preset_id: preset.id });
    assert.deepEqual(pageTexts(new Uint8Array(await applied.arrayBuffer())), ['Page 1']);
  });

  await t.test('bad steps are refused when saved, naming the step', async () => {
    const error = await errorOf(await server.request('POST', '/v1/pdf/presets', { name: 'bad', steps: [{ op: 'flatten' }, { op: 'rotate', angle: 33 }] }));
    assert.equal(error.status, 400);
    assert.match(error.detail, /steps\[1\]\.angle/);
  });

  await t.test('another key neither sees nor applies it; once deleted it is 404 for its own key too', async () => {
    const other = await server.createKey('business');
    const auth = { authorization: `Bearer ${other.key}` };
    assert.equal((await errorOf(await server.request('GET', `/v1/pdf/presets/${preset.id}`, undefined, auth))).code, 'preset_not_found');
    const foreign = await errorOf(await server.request('POST', '/v1/pdf/transform', { pdf, preset_id: preset.id }, auth));
    assert.deepEqual([foreign.status, foreign.code], [404, 'preset_not_found']);
    const list = (await (await server.request('GET', '/v1/pdf/presets', undefined, auth)).json()) as { data: PresetJson[] };
    assert.deepEqual(list.data, []);
    assert.equal((await server.request('DELETE', `/v1/pdf/presets/${preset.id}`, undefined, auth)).status, 404);
    assert.equal((await server.request('DELETE', `/v1/pdf/presets/${preset.id}`)).status, 204);
    assert.equal((await errorOf(await server.request('POST', '/v1/pdf/transform', { pdf, preset_id: preset.id }))).status, 404);
  });
});
