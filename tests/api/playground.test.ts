// POST /v1/playground/pdf (docs/api.md#playground): renders with no key and charges no account,
// refuses what only keyed renders may do, caps html at 512 KB, and limits each client address.
// Also the web pages around it: /admin and /playground from the UI build, or a page saying how to build it.
// test-lane: own-server (reads the playground's per-address rate, server-wide).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errorOf, startTestServer, usageOf } from '../helpers/start-app.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { clientGroup } from '../../server/src/services/render/playground.ts';

const PLAYGROUND = '/v1/playground/pdf';
const quick = (html: string) => ({ html, options: { wait_until: 'load' } });

test('POST /v1/playground/pdf renders html without a key, charges no account and reports the rate left', async (t) => {
  const server = await startTestServer(t);
  const response = await server.requestWithoutKey('POST', PLAYGROUND, { ...quick('<h1>Playground works</h1>'), filename: 'try.pdf' });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/pdf');
  assert.match(response.headers.get('content-disposition') ?? '', /try\.pdf/);
  assert.equal(response.headers.get('ratelimit-limit'), '10');
  assert.equal(response.headers.get('ratelimit-remaining'), '9');
  assert.equal(response.headers.get('x-service-usage'), null, 'no account, no usage headers');
  const pdf = await inspectPdf(await response.arrayBuffer());
  assert.match(pdf.text, /Playground works/);
  assert.equal(await usageOf(server), 0);
  // A key sent along changes nothing: the playground never charges it.
  const withKey = await server.request('POST', PLAYGROUND, quick('<p>with a key</p>'));
  assert.equal(withKey.status, 200);
  assert.equal(await usageOf(server), 0);
});

test('POST /v1/playground/pdf refuses bad requests before counting them against the rate', async (t) => {
  const server = await startTestServer(t, { playgroundRateLimit: 1 });
  const cases: { body: unknown; status: number; code: string; names: RegExp }[] = [
    { body: { html: `<p>${'x'.repeat(512 * 1024)}</p>` }, status: 413, code: 'payload_too_large', names: /512 KB/ },
    { body: { template_id: 'tpl_abcdef12', data: {} }, status: 400, code: 'invalid_request', names: /template_id/ },
    { body: { html: '<p>x</p>', store: true }, status: 400, code: 'invalid_request', names: /store/ },
    { body: { html: '<p>x</p>', store: false }, status: 400, code: 'invalid_request', names: /store/ },
    { body: {}, status: 400, code: 'invalid_request', names: /html/ },
    { body: { html: '<p>x</p>', url: 'https://example.com/' }, status: 400, code: 'conflicting_source', names: /html and url/ },
    { body: { html: '<p>x</p>', options: { scale: 3 } }, status: 400, code: 'invalid_request', names: /options\.scale/ },
    { body: { url: 'http://127.0.0.1:1/' }, status: 400, code: 'url_blocked', names: /public/ },
    { body: { url: 'file:///etc/passwd' }, status: 400, code: 'url_blocked', names: /public/ },
  ];
  for (const { body, status, code, names } of cases) {
    const error = await errorOf(await server.requestWithoutKey('POST', PLAYGROUND, body));
    assert.equal(error.status, status, JSON.stringify(body).slice(0, 80));
    assert.equal(error.code, code);
    assert.match(error.detail, names);
  }
  assert.equal((await server.requestWithoutKey('POST', PLAYGROUND, quick('<p>still allowed</p>'))).status, 200, 'refusals did not use the allowance');
});

test('PLAYGROUND_ENABLED=false switches the playground off with 404 not_found', async (t) => {
  const server = await startTestServer(t, { playgroundEnabled: false });
  const error = await errorOf(await server.requestWithoutKey('POST', PLAYGROUND, quick('<p>x</p>')));
  assert.equal(error.status, 404);
  assert.equal(error.code, 'not_found');
  assert.match(error.detail, /switched off/);
});

test('the playground is in the OpenAPI document with no security and its 429', async (t) => {
  const server = await startTestServer(t);
  const document = (await (await server.requestWithoutKey('GET', '/openapi.json')).json()) as {
    paths: Record<string, Record<string, { security: unknown[]; responses: Record<string, unknown> }>>;
  };
  const operation = document.paths[PLAYGROUND]?.post;
  assert.ok(operation);
  assert.deepEqual(operation.security, []);
  assert.ok(operation.responses['429'] && operation.responses['413']);
});

test('clients are counted per IPv4 address and per IPv6 /64', () => {
  assert.equal(clientGroup('203.0.113.7'), '203.0.113.7');
  assert.equal(clientGroup('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(clientGroup('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(clientGroup('2001:db8:1:2:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64');
  assert.equal(clientGroup('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(clientGroup('::1'), '0:0:0:0::/64');
});

test('/admin and /playground answer the UI build; the admin API keeps its JSON 404; a missing build is a page saying how to build it', async (t) => {
  const uiDir = await mkdtemp(path.join(os.tmpdir(), 'quire-ui-'));
  t.after(() => rm(uiDir, { recursive: true, force: true }));
  await mkdir(path.join(uiDir, 'assets'));
  await writeFile(path.join(uiDir, 'index.html'), '<!doctype html><title>Quire UI</title><script type="module" src="/ui/assets/app.js"></script>');
  await writeFile(path.join(uiDir, 'assets', 'app.js'), 'console.log(1)');
  const server = await startTestServer(t, {}, { uiDir });
  for (const page of ['/admin', '/admin/', '/admin/templates', '/playground', '/playground/']) {
    const response = await fetch(server.url + page);
    assert.equal(response.status, 200, page);
    assert.match(await response.text(), /Quire UI/);
    assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'self'/);
  }
  const asset = await fetch(`${server.url}/ui/assets/app.js`);
  assert.equal(asset.status, 200);
  assert.match(asset.headers.get('cache-control') ?? '', /immutable/);
  const root = await fetch(`${server.url}/`, { redirect: 'manual' });
  assert.equal(root.status, 302);
  assert.equal(root.headers.get('location'), '/admin');
  const apiMiss = await errorOf(await server.admin('GET', '/admin/v1/nothing-here'));
  assert.equal(apiMiss.status, 404);
  assert.equal(apiMiss.code, 'not_found');
  assert.equal((await errorOf(await fetch(`${server.url}/ui/assets/missing.js`))).code, 'not_found');

  const unbuilt = await startTestServer(t, {}, { uiDir: path.join(uiDir, 'not-built') });
  const page = await fetch(`${unbuilt.url}/admin`);
  assert.equal(page.status, 503);
  assert.match(page.headers.get('content-type') ?? '', /text\/html/);
  assert.match(await page.text(), /npm run build/);
});
