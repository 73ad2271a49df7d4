// test-lane: own-server (counts the app's renders).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateApiKey } from '../../server/src/accounts/keys.ts';
import { bearer, errorOf, startTestServer, type TestServer } from '../helpers/start-app.ts';

interface Endpoint {
  method: string;
  path: string;
  scheme: 'apiKey' | 'adminToken';
}

/** Every protected operation, read from the served OpenAPI document so new endpoints are covered too. */
async function protectedEndpoints(server: TestServer): Promise<Endpoint[]> {
  const document = (await (await server.requestWithoutKey('GET', '/openapi.json')).json()) as {
    paths: Record<string, Record<string, { security: Record<string, unknown>[] }>>;
  };
  const endpoints: Endpoint[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const scheme = Object.keys(operation.security[0] ?? {})[0];
      if (scheme === 'apiKey' || scheme === 'adminToken') {
        endpoints.push({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, 'key_0000000000000000'), scheme });
      }
    }
  }
  return endpoints;
}

test('every protected endpoint answers 401 unauthorized to a missing, malformed, unknown, revoked or rotated-away key, without rendering', async (t) => {
  const server = await startTestServer(t);
  const revoked = await server.createKey('starter');
  assert.equal((await server.admin('DELETE', `/admin/v1/keys/${revoked.id}`)).status, 204);
  const rotated = await server.createKey('starter');
  assert.equal((await server.admin('POST', `/admin/v1/keys/${rotated.id}/rotate`)).status, 200);

  const endpoints = await protectedEndpoints(server);
  const apiEndpoints = endpoints.filter((endpoint) => endpoint.scheme === 'apiKey');
  assert.ok(
    apiEndpoints.some((endpoint) => endpoint.path === '/v1/pdf'),
    'POST /v1/pdf is in the matrix',
  );
  assert.ok(
    endpoints.some((endpoint) => endpoint.path === '/admin/v1/keys'),
    'the admin API is in the matrix',
  );

  const credentials: Record<string, Record<string, string>> = {
    missing: {},
    'empty bearer': { authorization: 'Bearer ' },
    'other scheme': { authorization: `Basic ${Buffer.from(`${server.key.key}:`).toString('base64')}` },
    'key without scheme': { authorization: server.key.key },
    malformed: { authorization: 'Bearer sk_live_short' },
    'valid key with a character added': { authorization: `Bearer ${server.key.key}x` },
    'well-formed unknown key': bearer(generateApiKey()),
    revoked: bearer(revoked),
    'rotated away': bearer(rotated),
    'admin token': bearer(server.adminToken),
  };
  const rendersBefore = server.app.renderer.stats().rendersTotal;
  // A body that would render, and one that would be a 400 if it were read: authentication comes first.
  const bodies = ['{"html": "<p>would render</p>", "options": {"wait_until": "load"}}', '{"html": '];
  for (const endpoint of apiEndpoints) {
    for (const [name, headers] of Object.entries(credentials)) {
      for (const body of endpoint.method === 'GET' || endpoint.method === 'DELETE' ? [undefined] : bodies) {
        const response = await server.requestWithoutKey(endpoint.method, endpoint.path, body, { 'content-type': 'application/json', ...headers });
        const error = await errorOf(response);
        assert.equal(error.status, 401, `${endpoint.method} ${endpoint.path} with ${name}`);
        assert.equal(error.code, 'unauthorized');
        assert.equal(response.headers.get('www-authenticate'), 'Bearer realm="quire"');
        assert.equal(response.headers.get('x-service-usage'), null);
      }
    }
  }
  assert.equal(server.app.renderer.stats().rendersTotal, rendersBefore, 'no render ran');
  const defaultKey = (await (await server.admin('GET', `/admin/v1/keys/${server.key.id}`)).json()) as { usage: { used: number } };
  assert.equal(defaultKey.usage.used, 0);
});

test('every admin endpoint refuses API keys and wrong tokens with 401; the admin token is never an API key', async (t) => {
  const server = await startTestServer(t);
  const adminEndpoints = (await protectedEndpoints(server)).filter((endpoint) => endpoint.scheme === 'adminToken');
  assert.ok(adminEndpoints.length >= 7);
  const credentials: Record<string, Record<string, string>> = {
    missing: {},
    'a valid API key': bearer(server.key),
    'the admin token with a character added': bearer(`${server.adminToken}x`),
    'the admin token cut short': bearer(server.adminToken.slice(0, -1)),
    'the admin token in another scheme': { authorization: `Token ${server.adminToken}` },
  };
  for (const endpoint of adminEndpoints) {
    for (const [name, headers] of Object.entries(credentials)) {
      const response = await server.requestWithoutKey(
        endpoint.method,
        endpoint.path,
        endpoint.method === 'GET' || endpoint.method === 'DELETE' ? undefined : { name: 'x', plan: 'free' },
        headers,
      );
      assert.equal((await errorOf(response)).code, 'unauthorized', `${endpoint.method} ${endpoint.path} with ${name}`);
    }
  }
  assert.equal(((await (await server.admin('GET', '/admin/v1/keys')).json()) as { data: unknown[] }).data.length, 1, 'nothing was created');
});

test('a valid key renders, whatever the case of the Bearer scheme', async (t) => {
  const server = await startTestServer(t);
  const response = await server.render({ html: '<p>hi</p>', options: { wait_until: 'load' } }, { authorization: `bearer ${server.key.key}` });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('x-service-plan'), 'business');
});

test('GET /health, /openapi.json and /docs need no key', async (t) => {
  const server = await startTestServer(t);
  for (const route of ['/health', '/openapi.json', '/docs']) {
    assert.equal((await server.requestWithoutKey('GET', route)).status, 200, route);
  }
});

test('the OpenAPI document describes both bearer schemes and the admin operations with their schemas', async (t) => {
  const server = await startTestServer(t);
  const document = (await (await server.requestWithoutKey('GET', '/openapi.json')).json()) as {
    components: { securitySchemes: Record<string, unknown> };
    paths: Record<string, Record<string, { security: unknown[]; requestBody?: unknown; responses: Record<string, { headers?: Record<string, unknown> }> }>>;
  };
  assert.deepEqual(Object.keys(document.components.securitySchemes).sort(), ['adminToken', 'apiKey']);
  assert.deepEqual(document.paths['/admin/v1/keys']!.post!.security, [{ adminToken: [] }]);
  assert.ok(document.paths['/admin/v1/keys']!.post!.requestBody);
  assert.ok(document.paths['/admin/v1/keys/{id}/rotate']!.post);
  assert.ok(document.paths['/admin/v1/plans']!.get);
  assert.deepEqual(Object.keys(document.paths['/v1/pdf']!.post!.responses['200']!.headers ?? {}).sort(), [
    'Location',
    'X-Document-Id',
    'X-Render-Receipt',
    'X-Service-Limit',
    'X-Service-Plan',
    'X-Service-Usage',
  ]);
  assert.ok(document.paths['/v1/pdf']!.post!.responses['402']);
});
