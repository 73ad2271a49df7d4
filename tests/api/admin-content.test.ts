// The admin's views of documents and templates across keys (docs/api.md#documents-templates-and-batches-of-every-key): the
// /v1 shapes plus key_id, the same paging, the key_id filter, and the template preview that is
// neither stored nor charged.
// test-lane: own-server (pages through every key's documents).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, errorOf, startTestServer, type IssuedKey, type TestServer } from '../helpers/start-app.ts';
import { inspectPdf } from '../helpers/pdf.ts';

const LOAD = { wait_until: 'load' };

async function storeFor(server: TestServer, key: IssuedKey, html: string): Promise<string> {
  const response = await server.render({ html, store: true, options: LOAD }, bearer(key));
  assert.equal(response.status, 200);
  return response.headers.get('x-document-id')!;
}

async function json<T>(response: Response, status = 200): Promise<T> {
  assert.equal(response.status, status, await response.clone().text());
  return (await response.json()) as T;
}

interface Listed {
  data: { id?: string; template_id?: string; key_id: string; name?: string }[];
  next_cursor: string | null;
}

async function usage(server: TestServer): Promise<Record<string, number>> {
  const keys = await json<{ data: { id: string; usage: { used: number } }[] }>(await server.admin('GET', '/admin/v1/keys'));
  return Object.fromEntries(keys.data.map((key) => [key.id, key.usage.used]));
}

test('admin views of documents and templates across keys', { timeout: 120_000 }, async (t) => {
  const server = await startTestServer(t);
  const alice = await server.createKey('starter', { name: 'alice' });
  const bob = await server.createKey('starter', { name: 'bob' });
  const aliceDocs = [await storeFor(server, alice, '<p>a1</p>'), await storeFor(server, alice, '<p>a2</p>')];
  const bobDoc = await storeFor(server, bob, '<p>b1</p>');

  await t.test('GET /admin/v1/documents lists every key’s documents newest first with key_id, in pages', async () => {
    const first = await json<Listed>(await server.admin('GET', '/admin/v1/documents?limit=2'));
    assert.deepEqual(
      first.data.map((document) => [document.id, document.key_id]),
      [
        [bobDoc, bob.id],
        [aliceDocs[1], alice.id],
      ],
    );
    const second = await json<Listed>(await server.admin('GET', `/admin/v1/documents?limit=2&cursor=${first.next_cursor}`));
    assert.deepEqual([second.data.map((document) => document.id), second.next_cursor], [[aliceDocs[0]], null]);
    assert.deepEqual(Object.keys(first.data[0]!).sort(), ['created_at', 'expires_at', 'filename', 'id', 'key_id', 'pages', 'size', 'source']);
  });

  await t.test('key_id keeps one key’s documents; a malformed key_id is 400', async () => {
    const filtered = await json<Listed>(await server.admin('GET', `/admin/v1/documents?key_id=${alice.id}`));
    assert.deepEqual(
      filtered.data.map((document) => document.id),
      [...aliceDocs].reverse(),
    );
    assert.deepEqual((await json<Listed>(await server.admin('GET', '/admin/v1/documents?key_id=key_nobody'))).data, []);
    const error = await errorOf(await server.admin('GET', '/admin/v1/documents?key_id=../etc'));
    assert.deepEqual([error.status, error.code], [400, 'invalid_request']);
    assert.match(error.detail, /^key_id must be a key id/);
  });

  await t.test('the admin fetches and deletes any key’s document', async () => {
    const fetched = await server.admin('GET', `/admin/v1/documents/${bobDoc}`);
    assert.equal(fetched.status, 200);
    assert.equal(
      Buffer.from(await fetched.arrayBuffer())
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    );
    assert.equal((await server.admin('DELETE', `/admin/v1/documents/${bobDoc}`)).status, 204);
    assert.equal((await errorOf(await server.request('GET', `/v1/documents/${bobDoc}`, undefined, bearer(bob)))).code, 'document_not_found');
    assert.equal((await errorOf(await server.admin('GET', `/admin/v1/documents/${bobDoc}`))).code, 'document_not_found');
  });

  await t.test('the admin creates a template for a key; it belongs to that key', async () => {
    const created = await json<{ template_id: string; key_id: string; name: string }>(
      await server.admin('POST', '/admin/v1/templates', { key_id: alice.id, name: 'for alice', html: '<p>Hi {{who}}</p>' }),
      201,
    );
    assert.equal(created.key_id, alice.id);
    assert.equal((await server.request('GET', `/v1/templates/${created.template_id}`, undefined, bearer(alice))).status, 200);
    assert.equal((await errorOf(await server.request('GET', `/v1/templates/${created.template_id}`, undefined, bearer(bob)))).code, 'template_not_found');
    const response = await server.render({ template_id: created.template_id, data: { who: 'Alice' }, options: LOAD }, bearer(alice));
    assert.match((await inspectPdf(new Uint8Array(await response.arrayBuffer()))).text, /Hi Alice/);
  });

  await t.test('creating a template for an unknown or revoked key is 400 naming key_id', async () => {
    const revoked = await server.createKey('starter');
    assert.equal((await server.admin('DELETE', `/admin/v1/keys/${revoked.id}`)).status, 204);
    for (const keyId of ['key_0000000000000000', revoked.id]) {
      const error = await errorOf(await server.admin('POST', '/admin/v1/templates', { key_id: keyId, name: 'x', html: 'x' }));
      assert.deepEqual([error.status, error.code], [400, 'invalid_request']);
      assert.match(error.detail, new RegExp(`^key_id ${keyId} is not an API key in use`));
    }
  });

  await t.test('GET /admin/v1/templates lists across keys with key_id; the admin fetches, replaces and deletes any', async () => {
    const bobs = await json<{ template_id: string }>(await server.request('POST', '/v1/templates', { name: 'bob’s', html: '<p>b</p>' }, bearer(bob)), 201);
    const all = await json<Listed>(await server.admin('GET', '/admin/v1/templates'));
    assert.deepEqual(
      all.data.map((template) => [template.name, template.key_id]),
      [
        ['bob’s', bob.id],
        ['for alice', alice.id],
      ],
    );
    const onlyBob = await json<Listed>(await server.admin('GET', `/admin/v1/templates?key_id=${bob.id}&limit=1`));
    assert.deepEqual([onlyBob.data.map((template) => template.template_id), onlyBob.next_cursor], [[bobs.template_id], null]);
    const fetched = await json<{ html: string; key_id: string }>(await server.admin('GET', `/admin/v1/templates/${bobs.template_id}`));
    assert.deepEqual([fetched.html, fetched.key_id], ['<p>b</p>', bob.id]);
    const replaced = await json<{ name: string; key_id: string }>(
      await server.admin('PUT', `/admin/v1/templates/${bobs.template_id}`, { name: 'renamed', html: '<p>c</p>' }),
    );
    assert.deepEqual([replaced.name, replaced.key_id], ['renamed', bob.id]);
    assert.equal((await server.admin('DELETE', `/admin/v1/templates/${bobs.template_id}`)).status, 204);
    assert.equal((await errorOf(await server.request('GET', `/v1/templates/${bobs.template_id}`, undefined, bearer(bob)))).code, 'template_not_found');
  });

  await t.test('POST /admin/v1/templates/preview renders HTML with data: nothing stored, nobody charged', async () => {
    const usageBefore = await usage(server);
    const documentsBefore = await json<Listed>(await server.admin('GET', '/admin/v1/documents'));
    const response = await server.admin('POST', '/admin/v1/templates/preview', {
      html: '<h1>Preview {{name}}</h1>{{#rows}}<p>row {{.}}</p>{{/rows}}',
      data: { name: '<Ada>', rows: [1, 2] },
      options: { ...LOAD, format: 'A5' },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    assert.equal(response.headers.get('x-document-id'), null);
    const pdf = await inspectPdf(new Uint8Array(await response.arrayBuffer()));
    assert.match(pdf.text, /Preview <Ada>/);
    assert.match(pdf.text, /row 1[\s\S]*row 2/);
    assert.ok(Math.abs(pdf.pages[0]!.width - 419.53) < 2, 'options apply (A5)');
    assert.deepEqual(await usage(server), usageBefore);
    assert.deepEqual(await json<Listed>(await server.admin('GET', '/admin/v1/documents')), documentsBefore);
  });

  await t.test('a preview with a template syntax error is 400 naming where; bad options are 400 too', async () => {
    const error = await errorOf(await server.admin('POST', '/admin/v1/templates/preview', { html: '<p>\n{{#x}}</p>' }));
    assert.deepEqual([error.status, error.code], [400, 'invalid_request']);
    assert.match(error.detail, /line 2, column 1/);
    assert.match(
      (await errorOf(await server.admin('POST', '/admin/v1/templates/preview', { html: 'x', options: { scale: 9 } }))).detail,
      /^options\.scale must be between 0\.1 and 2\.0/,
    );
  });

  await t.test('the OpenAPI document describes every template, document and admin view operation', async () => {
    const document = await json<{ paths: Record<string, Record<string, unknown>> }>(await server.requestWithoutKey('GET', '/openapi.json'));
    const expected: [string, string[]][] = [
      ['/v1/templates', ['get', 'post']],
      ['/v1/templates/{template_id}', ['delete', 'get', 'put']],
      ['/v1/documents', ['get']],
      ['/v1/documents/{document_id}', ['delete', 'get']],
      ['/admin/v1/documents', ['get']],
      ['/admin/v1/documents/{document_id}', ['delete', 'get']],
      ['/admin/v1/templates', ['get', 'post']],
      ['/admin/v1/templates/preview', ['post']],
      ['/admin/v1/templates/{template_id}', ['delete', 'get', 'put']],
    ];
    for (const [route, methods] of expected) assert.deepEqual(Object.keys(document.paths[route] ?? {}).sort(), methods, route);
  });
});
