// The service's own endpoints: GET /health, the OpenAPI document, /docs with its local assets,
// Prometheus /metrics, and the settings that switch docs and metrics off.
// test-lane: own-server (reads server-wide metrics and /health).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { errorOf, startTestServer } from '../helpers/start-app.ts';
import { ERROR_STATUS } from '../../server/src/errors.ts';
import { PAPER_FORMATS, WAIT_UNTIL } from '../../server/src/render/pdf-options.ts';

/** The parts of a JSON Schema these tests read. */
interface Schema {
  type?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  enum?: unknown[];
  minLength?: number;
  required?: string[];
  additionalProperties?: boolean;
  properties?: Record<string, Schema>;
  $ref?: string;
}

interface OperationDoc {
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  security: Record<string, unknown>[];
}

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, OperationDoc>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, { scheme: string }> };
}

interface Health {
  status: string;
  version: string;
  renderer: { browser: string; alive: boolean; slots: number; busy: number; queued: number; restarts: number };
}

/** The value of one sample in Prometheus text format, or undefined when it is absent. */
function sample(metrics: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of metrics.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

test('service endpoints describe and report the service', { timeout: 60_000 }, async (t) => {
  const server = await startTestServer(t);

  await t.test('GET /health answers ok with renderer facts, without a key', async () => {
    const response = await server.requestWithoutKey('GET', '/health');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as Health;
    assert.equal(body.status, 'ok');
    assert.equal(typeof body.version, 'string');
    const { renderer } = body;
    assert.match(renderer.browser, /Chrom/i);
    assert.equal(renderer.alive, true);
    assert.equal(renderer.slots, server.app.config.renderConcurrency);
    for (const field of ['busy', 'queued', 'restarts'] as const)
      assert.ok(Number.isInteger(renderer[field]) && renderer[field] >= 0, `renderer.${field} = ${renderer[field]}`);
  });

  await t.test('GET /health ignores a wrong key rather than refusing', async () => {
    const response = await server.requestWithoutKey('GET', '/health', undefined, { authorization: 'Bearer sk_live_not_a_key' });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as Health).status, 'ok');
  });

  await t.test('HEAD /health answers 200 and POST /health answers 405 with Allow', async () => {
    assert.equal((await server.requestWithoutKey('HEAD', '/health')).status, 200);
    const response = await server.requestWithoutKey('POST', '/health');
    assert.equal(response.status, 405);
    assert.match(response.headers.get('allow') ?? '', /GET/);
    assert.equal((await errorOf(response)).code, 'method_not_allowed');
  });

  let document = {} as OpenApiDocument;
  await t.test('GET /openapi.json is an OpenAPI 3.1 document that needs no key', async () => {
    const response = await server.requestWithoutKey('GET', '/openapi.json');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    document = (await response.json()) as OpenApiDocument;
    assert.match(document.openapi, /^3\.1\.\d+$/);
    assert.equal(typeof document.info?.title, 'string');
    assert.ok(document.paths['/v1/pdf']?.post, 'POST /v1/pdf is described');
    assert.ok(document.paths['/health']?.get, 'GET /health is described');
  });

  await t.test('the OpenAPI request schema of POST /v1/pdf lists every PdfOptions field with its bounds', () => {
    const post = document.paths['/v1/pdf']!.post!;
    const body = post.requestBody!.content['application/json']!.schema;
    assert.deepEqual(Object.keys(body.properties!).sort(), [
      'data',
      'filename',
      'html',
      'markdown',
      'options',
      'store',
      'template_id',
      'template_version',
      'url',
    ]);
    assert.equal(body.additionalProperties, false);
    const options = body.properties!.options!;
    assert.equal(options.additionalProperties, false);
    const fields = options.properties!;
    for (const name of [
      'format',
      'landscape',
      'margin',
      'print_background',
      'scale',
      'page_ranges',
      'prefer_css_page_size',
      'media',
      'timeout_ms',
      'wait_until',
      'wait_for',
      'wait_ms',
      'header_template',
      'footer_template',
      'header',
      'footer',
      'css',
    ]) {
      assert.ok(fields[name], `options.${name} is described`);
    }
    assert.deepEqual(
      { type: fields.scale!.type, minimum: fields.scale!.minimum, maximum: fields.scale!.maximum, default: fields.scale!.default },
      { type: 'number', minimum: 0.1, maximum: 2, default: 1 },
    );
    assert.deepEqual(
      { type: fields.timeout_ms!.type, minimum: fields.timeout_ms!.minimum, maximum: fields.timeout_ms!.maximum, default: fields.timeout_ms!.default },
      { type: 'integer', minimum: 1000, maximum: 60000, default: 30000 },
    );
    assert.deepEqual(
      { type: fields.wait_ms!.type, minimum: fields.wait_ms!.minimum, maximum: fields.wait_ms!.maximum, default: fields.wait_ms!.default },
      { type: 'integer', minimum: 0, maximum: 5000, default: 0 },
    );
    assert.deepEqual(fields.format!.enum, [...PAPER_FORMATS]);
    assert.equal(fields.format!.default, 'A4');
    assert.deepEqual(fields.wait_until!.enum, [...WAIT_UNTIL]);
    assert.equal(fields.wait_until!.default, 'networkidle0');
    assert.deepEqual(fields.media!.enum, ['print', 'screen']);
    assert.equal(fields.media!.default, 'print');
    assert.equal(fields.margin!.default, '1cm');
    assert.equal(fields.print_background!.default, true);
    assert.equal(fields.landscape!.default, false);
    assert.equal(fields.prefer_css_page_size!.default, false);
    assert.equal(fields.wait_for!.minLength, 1);
  });

  await t.test('the OpenAPI document answers POST /v1/pdf with a PDF and its errors with {detail, code}', () => {
    const post = document.paths['/v1/pdf']!.post!;
    assert.ok(post.responses['200']!.content!['application/pdf'], '200 is application/pdf');
    for (const status of ['400', '401', '413', '422', '503', '504']) {
      assert.equal(post.responses[status]?.content?.['application/json']?.schema?.$ref, '#/components/schemas/Error', `${status} is an Error`);
    }
    const error = document.components.schemas.Error!;
    assert.deepEqual([...error.required!].sort(), ['code', 'detail']);
    for (const code of Object.keys(ERROR_STATUS)) assert.ok(error.properties!.code!.enum!.includes(code), `code ${code} is listed`);
    assert.ok(
      post.security.some((scheme) => 'apiKey' in scheme),
      'POST /v1/pdf needs the API key',
    );
    assert.equal(document.components.securitySchemes.apiKey!.scheme, 'bearer');
    assert.deepEqual(document.paths['/health']!.get!.security, [], 'GET /health needs no key');
  });

  await t.test('the OpenAPI document carries the interface version 1.0.0 of docs/api.md, labelled beside the server’s as /health gives them', async () => {
    assert.equal(document.info.version, '1.0.0');
    const health = (await (await server.requestWithoutKey('GET', '/health')).json()) as { version: string; api_version: string };
    const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    assert.deepEqual([health.api_version, health.version], ['1.0.0', version], '/health labels both');
    assert.equal((document.info as { 'x-server-version'?: string })['x-server-version'], version);
    assert.ok(document.info.description?.startsWith(`**API 1.0.0 · Quire ${version}**`), `/docs shows both, labelled: ${document.info.description}`);
  });

  await t.test('GET /docs serves an HTML page that loads only local assets, all of which answer', async () => {
    const response = await server.requestWithoutKey('GET', '/docs');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    const html = await response.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    assert.ok(assets.length >= 2, `assets: ${assets.join(', ')}`);
    for (const asset of assets) {
      assert.match(asset, /^\/(?!\/)/, `${asset} is served by the service itself, not a CDN`);
      const loaded = await server.requestWithoutKey('GET', asset);
      assert.equal(loaded.status, 200, `${asset} answers 200`);
      const type = loaded.headers.get('content-type') ?? '';
      if (asset.endsWith('.css')) assert.match(type, /^text\/css/, asset);
      if (asset.endsWith('.js')) assert.match(type, /javascript/, asset);
      const text = await loaded.text();
      assert.ok(text.length > 0, `${asset} is not empty`);
      if (asset.endsWith('init.js')) assert.match(text, /\/openapi\.json/);
    }
  });

  await t.test('an asset that does not exist under /docs answers 404 not_found', async () => {
    const response = await server.requestWithoutKey('GET', '/docs/assets/no-such-file.js');
    assert.equal(response.status, 404);
    assert.equal((await errorOf(response)).code, 'not_found');
  });

  await t.test('GET /metrics counts renders by outcome and has a render duration histogram', async () => {
    const before = await (await server.requestWithoutKey('GET', '/metrics')).text();
    const successes = sample(before, 'quire_renders_total', { outcome: 'success' }) ?? 0;
    const timeouts = sample(before, 'quire_renders_total', { outcome: 'timeout' }) ?? 0;
    const durations = sample(before, 'quire_render_duration_seconds_count', { outcome: 'success' }) ?? 0;

    const ok = await server.render({ html: '<p>counted</p>', options: { wait_until: 'load' } });
    assert.equal(ok.status, 200);
    await ok.arrayBuffer();
    const late = await server.render({ html: '<p>x</p>', options: { wait_for: '#never', timeout_ms: 1000, wait_until: 'load' } });
    assert.equal(late.status, 504);
    await late.arrayBuffer();

    const response = await server.requestWithoutKey('GET', '/metrics');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    const after = await response.text();
    assert.match(after, /^# TYPE quire_renders_total counter$/m);
    assert.match(after, /^# TYPE quire_render_duration_seconds histogram$/m);
    assert.match(after, /^# TYPE quire_process_cpu_seconds_total counter$/m, 'the process metrics carry one prefix');
    assert.match(after, /^# TYPE quire_nodejs_heap_size_used_bytes gauge$/m);
    assert.doesNotMatch(after, /quire_process_process_|quire_process_nodejs_/);
    assert.equal(sample(after, 'quire_renders_total', { outcome: 'success' }), successes + 1);
    assert.equal(sample(after, 'quire_renders_total', { outcome: 'timeout' }), timeouts + 1);
    assert.equal(sample(after, 'quire_render_duration_seconds_count', { outcome: 'success' }), durations + 1);
    assert.equal(sample(after, 'quire_render_duration_seconds_bucket', { outcome: 'success', le: '+Inf' }), durations + 1);
    assert.ok((sample(after, 'quire_render_duration_seconds_sum', { outcome: 'success' }) ?? 0) > 0);
    assert.equal(sample(after, 'quire_render_slots'), server.app.config.renderConcurrency);
    assert.equal(sample(after, 'quire_render_slots_busy'), 0);
  });

  await t.test('a bad request is not counted as a render', async () => {
    const before = await (await server.requestWithoutKey('GET', '/metrics')).text();
    const bad = await server.render({ html: '<p>x</p>', options: { scale: 3 } });
    assert.equal(bad.status, 400);
    await bad.arrayBuffer();
    const after = await (await server.requestWithoutKey('GET', '/metrics')).text();
    for (const outcome of ['success', 'invalid_input', 'error']) {
      assert.equal(sample(after, 'quire_renders_total', { outcome }), sample(before, 'quire_renders_total', { outcome }), outcome);
    }
  });
});

test('docs and metrics can be switched off by config', { timeout: 60_000 }, async (t) => {
  const server = await startTestServer(t, { docsEnabled: false, metricsEnabled: false });
  for (const path of ['/openapi.json', '/docs', '/docs/init.js', '/docs/assets/swagger-ui.css', '/metrics']) {
    await t.test(`GET ${path} answers 404 not_found when switched off`, async () => {
      const response = await server.requestWithoutKey('GET', path);
      assert.equal(response.status, 404);
      assert.equal((await errorOf(response)).code, 'not_found');
    });
  }
  await t.test('health and rendering still work with docs and metrics off', async () => {
    assert.equal((await server.requestWithoutKey('GET', '/health')).status, 200);
    const response = await server.render({ html: '<p>x</p>', options: { wait_until: 'load' } });
    assert.equal(response.status, 200);
    await response.arrayBuffer();
  });
});
