// Bad requests to POST /v1/pdf (and around it): each answers its CONTRACT.md status and code
// with a `{detail, code}` body that names the field, never a stack, never a hang; the server
// renders fine afterwards.

import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/start-app.ts';
import { inspectPdf } from '../helpers/pdf.ts';

interface BadRequest {
  name: string;
  method?: string;
  path?: string;
  /** An object is sent as JSON; a string or bytes are sent as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The Authorization header to send instead of the test key ('' sends none). */
  authorization?: string;
  status: number;
  code: string;
  /** Text the detail must contain, usually the offending field. */
  names?: string;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const html = '<p>bad request</p>';
const withOptions = (options: Record<string, unknown>) => ({ html, options: { wait_until: 'load', ...options } });

const CASES: BadRequest[] = [
  // The body itself.
  { name: 'malformed JSON', body: '{"html": "<p>', headers: JSON_TYPE, status: 400, code: 'invalid_json' },
  { name: 'JSON with a trailing comma', body: '{"html": "<p>x</p>",}', headers: JSON_TYPE, status: 400, code: 'invalid_json' },
  { name: 'an array body', body: [{ html }], status: 400, code: 'invalid_request', names: 'request body' },
  { name: 'a JSON string body', body: '"<p>x</p>"', headers: JSON_TYPE, status: 400, code: 'invalid_request', names: 'object' },
  { name: 'a JSON number body', body: '42', headers: JSON_TYPE, status: 400, code: 'invalid_request', names: 'object' },
  { name: 'a JSON null body', body: 'null', headers: JSON_TYPE, status: 400, code: 'invalid_request', names: 'object' },
  { name: 'a text/plain body', body: JSON.stringify({ html }), headers: { 'content-type': 'text/plain' }, status: 400, code: 'invalid_request', names: 'application/json' },
  { name: 'a form-encoded body', body: 'html=%3Cp%3Ex%3C%2Fp%3E', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 400, code: 'invalid_request', names: 'application/json' },
  { name: 'no body and no Content-Type', status: 400, code: 'invalid_request', names: 'application/json' },
  { name: 'an empty JSON body', body: '', headers: JSON_TYPE, status: 400, code: 'invalid_request', names: 'html' },
  { name: 'a non-UTF-8 charset', body: JSON.stringify({ html }), headers: { 'content-type': 'application/json; charset=latin1' }, status: 400, code: 'invalid_request', names: 'UTF-8' },
  { name: 'an unknown Content-Encoding', body: JSON.stringify({ html }), headers: { ...JSON_TYPE, 'content-encoding': 'snappy' }, status: 400, code: 'invalid_request' },
  { name: 'a gzip body that does not inflate', body: 'this is not gzip', headers: { ...JSON_TYPE, 'content-encoding': 'gzip' }, status: 400, code: 'invalid_request', names: 'Content-Encoding' },
  { name: 'a gzip body that inflates past 6 MB', body: gzipSync(`{"html": "<p>x</p>"${' '.repeat(7 * 1024 * 1024)}}`), headers: { ...JSON_TYPE, 'content-encoding': 'gzip' }, status: 413, code: 'payload_too_large', names: '6 MB' },
  { name: 'a body over 6 MB', body: { html: 'x'.repeat(6 * 1024 * 1024 + 1024) }, status: 413, code: 'payload_too_large', names: '6 MB' },
  { name: 'html over 5 MB in a body under 6 MB', body: { html: `<p>${'x'.repeat(5 * 1024 * 1024 + 1024)}</p>` }, status: 413, code: 'payload_too_large', names: '5 MB' },

  // The key comes first: without a valid one, nothing else is looked at.
  { name: 'no Authorization header', authorization: '', body: { html }, status: 401, code: 'unauthorized', names: 'API key' },
  { name: 'an API key that does not exist', authorization: 'Bearer sk_live_000000000000000000000000', body: { html }, status: 401, code: 'unauthorized' },
  { name: 'a key in the wrong scheme', authorization: 'Basic c2tfbGl2ZV94eHg6', body: { html }, status: 401, code: 'unauthorized' },
  { name: 'malformed JSON without a key', authorization: '', body: '{"html": ', headers: JSON_TYPE, status: 401, code: 'unauthorized' },
  { name: 'a body over 6 MB without a key', authorization: '', body: { html: 'x'.repeat(6 * 1024 * 1024 + 1024) }, status: 401, code: 'unauthorized' },

  // The source.
  { name: 'no source at all', body: {}, status: 400, code: 'invalid_request', names: 'html' },
  { name: 'options but no source', body: { options: { format: 'A4' } }, status: 400, code: 'invalid_request', names: 'html' },
  { name: 'html and url together', body: { html, url: 'https://example.com/' }, status: 400, code: 'conflicting_source', names: 'html' },
  { name: 'html and template_id together', body: { html, template_id: 'tpl_abcdef12' }, status: 400, code: 'conflicting_source', names: 'template_id' },
  { name: 'url and template_id together', body: { url: 'https://example.com/', template_id: 'tpl_abcdef12' }, status: 400, code: 'conflicting_source', names: 'template_id' },
  { name: 'html that is not a string', body: { html: 42 }, status: 400, code: 'invalid_request', names: 'html' },
  { name: 'html null', body: { html: null }, status: 400, code: 'invalid_request', names: 'html' },
  { name: 'a template_id of the wrong shape', body: { template_id: 'template-1' }, status: 400, code: 'invalid_request', names: 'template_id' },
  { name: 'an unknown template_id', body: { template_id: 'tpl_doesnotexist' }, status: 404, code: 'template_not_found', names: 'tpl_doesnotexist' },
  { name: 'data that is not an object', body: { html, data: [1, 2] }, status: 400, code: 'invalid_request', names: 'data' },
  { name: 'store that is not a boolean', body: { html, store: 'yes' }, status: 400, code: 'invalid_request', names: 'store' },
  { name: 'an unknown top-level field', body: { html, colour: 'red' }, status: 400, code: 'invalid_request', names: 'colour' },
  { name: 'a camelCase top-level field', body: { html, templateId: 'tpl_abcdef12' }, status: 400, code: 'invalid_request', names: 'template_id' },
  { name: 'a __proto__ field', body: `{"html": "<p>x</p>", "__proto__": {"store": true}}`, headers: JSON_TYPE, status: 400, code: 'invalid_request', names: '__proto__' },

  // Every option, out of bounds or of the wrong type.
  { name: 'options that is not an object', body: { html, options: 'A4' }, status: 400, code: 'invalid_request', names: 'options' },
  { name: 'options null', body: { html, options: null }, status: 400, code: 'invalid_request', names: 'options' },
  { name: 'an unknown paper format', body: withOptions({ format: 'B5' }), status: 400, code: 'invalid_request', names: 'options.format' },
  { name: 'a paper format in the wrong case', body: withOptions({ format: 'a4' }), status: 400, code: 'invalid_request', names: 'options.format' },
  { name: 'landscape as a string', body: withOptions({ landscape: 'true' }), status: 400, code: 'invalid_request', names: 'options.landscape' },
  { name: 'a margin with an unknown unit', body: withOptions({ margin: '1furlong' }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'a margin in a relative unit (em)', body: withOptions({ margin: '2em' }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'a margin in a relative unit (%)', body: withOptions({ margin: '10%' }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'a margin that is garbage', body: withOptions({ margin: 'wide' }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'a margin without a unit', body: withOptions({ margin: '12' }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'a negative margin', body: withOptions({ margin: '-1cm' }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'a margin of five lengths', body: withOptions({ margin: '1cm 1cm 1cm 1cm 1cm' }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'margins wider than the paper', body: withOptions({ margin: '0 5in', format: 'Letter' }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'margins taller than the paper', body: withOptions({ margin: '6in 1cm', format: 'A4' }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'a margin as a number', body: withOptions({ margin: 10 }), status: 400, code: 'invalid_request', names: 'options.margin' },
  { name: 'print_background as a number', body: withOptions({ print_background: 1 }), status: 400, code: 'invalid_request', names: 'options.print_background' },
  { name: 'scale 0.05', body: withOptions({ scale: 0.05 }), status: 400, code: 'invalid_request', names: 'options.scale must be between 0.1 and 2.0' },
  { name: 'scale 2.5', body: withOptions({ scale: 2.5 }), status: 400, code: 'invalid_request', names: 'options.scale must be between 0.1 and 2.0' },
  { name: 'scale as a string', body: withOptions({ scale: '1' }), status: 400, code: 'invalid_request', names: 'options.scale' },
  { name: 'scale that overflows to infinity', body: '{"html": "<p>x</p>", "options": {"scale": 1e400}}', headers: JSON_TYPE, status: 400, code: 'invalid_request', names: 'options.scale' },
  { name: 'page_ranges that is garbage', body: withOptions({ page_ranges: 'first to third' }), status: 400, code: 'invalid_request', names: 'options.page_ranges' },
  { name: 'page_ranges with an empty entry', body: withOptions({ page_ranges: '1,,2' }), status: 400, code: 'invalid_request', names: 'options.page_ranges' },
  { name: 'page_ranges with a negative page', body: withOptions({ page_ranges: '-3' }), status: 400, code: 'invalid_request', names: 'options.page_ranges' },
  { name: 'page_ranges with page 0', body: withOptions({ page_ranges: '0' }), status: 400, code: 'invalid_request', names: 'options.page_ranges' },
  { name: 'page_ranges with a backwards range', body: withOptions({ page_ranges: '3-2' }), status: 400, code: 'invalid_request', names: 'options.page_ranges' },
  { name: 'page_ranges as a number', body: withOptions({ page_ranges: 2 }), status: 400, code: 'invalid_request', names: 'options.page_ranges' },
  { name: 'prefer_css_page_size as a string', body: withOptions({ prefer_css_page_size: 'yes' }), status: 400, code: 'invalid_request', names: 'options.prefer_css_page_size' },
  { name: 'an unknown media type', body: withOptions({ media: 'tv' }), status: 400, code: 'invalid_request', names: 'options.media' },
  { name: 'timeout_ms 999', body: withOptions({ timeout_ms: 999 }), status: 400, code: 'invalid_request', names: 'options.timeout_ms must be between 1000 and 60000' },
  { name: 'timeout_ms 60001', body: withOptions({ timeout_ms: 60_001 }), status: 400, code: 'invalid_request', names: 'options.timeout_ms must be between 1000 and 60000' },
  { name: 'timeout_ms 1.5', body: withOptions({ timeout_ms: 1.5 }), status: 400, code: 'invalid_request', names: 'options.timeout_ms must be a whole number' },
  { name: 'an unknown wait_until', body: withOptions({ wait_until: 'idle' }), status: 400, code: 'invalid_request', names: 'options.wait_until' },
  { name: 'an empty wait_for', body: withOptions({ wait_for: '' }), status: 400, code: 'invalid_request', names: 'options.wait_for' },
  { name: 'wait_ms -1', body: withOptions({ wait_ms: -1 }), status: 400, code: 'invalid_request', names: 'options.wait_ms must be between 0 and 5000' },
  { name: 'wait_ms 5001', body: withOptions({ wait_ms: 5001 }), status: 400, code: 'invalid_request', names: 'options.wait_ms must be between 0 and 5000' },
  { name: 'a header_template that is not a string', body: withOptions({ header_template: true }), status: 400, code: 'invalid_request', names: 'options.header_template' },
  { name: 'an unknown option', body: withOptions({ colour: 'red' }), status: 400, code: 'invalid_request', names: 'options.colour' },
  { name: 'a camelCase option', body: withOptions({ printBackground: false }), status: 400, code: 'invalid_request', names: 'print_background' },

  // The url: http(s) only, and never a private address.
  { name: 'a file: url', body: { url: 'file:///etc/passwd' }, status: 400, code: 'url_blocked' },
  { name: 'an ftp: url', body: { url: 'ftp://ftp.example.com/file.html' }, status: 400, code: 'url_blocked' },
  { name: 'a javascript: url', body: { url: 'javascript:alert(1)' }, status: 400, code: 'url_blocked' },
  { name: 'a data: url', body: { url: 'data:text/html,<p>x</p>' }, status: 400, code: 'url_blocked' },
  { name: 'a url to 127.0.0.1', body: { url: 'http://127.0.0.1/' }, status: 400, code: 'url_blocked' },
  { name: 'a url to localhost', body: { url: 'http://localhost:8080/' }, status: 400, code: 'url_blocked' },
  { name: 'a url to the metadata address', body: { url: 'http://169.254.169.254/latest/meta-data/' }, status: 400, code: 'url_blocked' },
  { name: 'a url to [::1]', body: { url: 'http://[::1]/' }, status: 400, code: 'url_blocked' },
  { name: 'a url to 10.0.0.1', body: { url: 'https://10.0.0.1/' }, status: 400, code: 'url_blocked' },
  { name: 'a url to 0.0.0.0', body: { url: 'http://0.0.0.0/' }, status: 400, code: 'url_blocked' },
  { name: 'a url to loopback spelled as a decimal number', body: { url: 'http://2130706433/' }, status: 400, code: 'url_blocked' },
  { name: 'a url to IPv4-mapped IPv6 loopback', body: { url: 'http://[::ffff:127.0.0.1]/' }, status: 400, code: 'url_blocked' },

  // The filename.
  { name: 'a filename with a slash', body: { html, filename: 'reports/q1.pdf' }, status: 400, code: 'invalid_request', names: 'filename' },
  { name: 'a filename with a backslash', body: { html, filename: 'reports\\q1.pdf' }, status: 400, code: 'invalid_request', names: 'filename' },
  { name: 'a filename with a control character', body: { html, filename: 'q1\u0007.pdf' }, status: 400, code: 'invalid_request', names: 'filename' },
  { name: 'a filename with a line break', body: { html, filename: 'q1.pdf\r\nX-Injected: 1' }, status: 400, code: 'invalid_request', names: 'filename' },
  { name: 'an empty filename', body: { html, filename: '' }, status: 400, code: 'invalid_request', names: 'filename' },
  { name: 'a filename over 255 characters', body: { html, filename: `${'a'.repeat(260)}.pdf` }, status: 400, code: 'invalid_request', names: 'filename' },

  { name: 'a filename holding a lone surrogate', body: '{"html": "<p>x</p>", "filename": "\\ud800.pdf", "store": true}', headers: JSON_TYPE, status: 400, code: 'invalid_request', names: 'filename' },
  { name: 'a batch item filename holding a lone surrogate', path: '/v1/pdf/batch', body: '{"requests": [{"html": "<p>x</p>", "filename": "a\\udfff.pdf"}]}', headers: JSON_TYPE, status: 400, code: 'invalid_request', names: 'requests[0].filename' },

  // Nesting: refused on the raw bytes, before anything recurses over it.
  { name: 'a batch body nested 50,000 levels deep', path: '/v1/pdf/batch', body: `{"requests": [{"html": "<p>x</p>", "data": {"a": ${'['.repeat(50_000)}${']'.repeat(50_000)}}}]}`, headers: JSON_TYPE, status: 400, code: 'invalid_request', names: 'deeper than 128 levels' },
  { name: 'data nested 50,000 objects deep', body: `{"html": "<p>x</p>", "data": ${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`, headers: JSON_TYPE, status: 400, code: 'invalid_request', names: 'deeper than 128 levels' },
  { name: 'brackets inside strings do not count as nesting', body: { html: `<p>${'[{'.repeat(1000)}</p>`, filename: 'deep.pdf', options: { wait_until: 'load', scale: 3 } }, status: 400, code: 'invalid_request', names: 'options.scale' },

  // The playground's body limit applies before parsing.
  { name: 'a playground body over 1 MB', path: '/v1/playground/pdf', authorization: '', body: { html: 'x'.repeat(1024 * 1024 + 10) }, status: 413, code: 'payload_too_large', names: '1 MB' },

  // Routing.
  { name: 'an unknown route', method: 'GET', path: '/v1/nothing-here', status: 404, code: 'not_found', names: '/v1/nothing-here' },
  { name: 'a POST to an unknown route', method: 'POST', path: '/v1/pdfs', body: { html }, status: 404, code: 'not_found', names: '/v1/pdfs' },
  { name: 'GET /v1/pdf', method: 'GET', path: '/v1/pdf', status: 405, code: 'method_not_allowed', names: 'POST' },
  { name: 'PUT /v1/pdf', method: 'PUT', path: '/v1/pdf', body: { html }, status: 405, code: 'method_not_allowed', names: 'POST' },
  { name: 'DELETE /v1/pdf', method: 'DELETE', path: '/v1/pdf', status: 405, code: 'method_not_allowed', names: 'POST' },
];

async function send(server: TestServer, bad: BadRequest): Promise<Response> {
  const authorization = bad.authorization ?? `Bearer ${server.key.key}`;
  const headers: Record<string, string> = { ...(authorization ? { authorization } : {}), ...(bad.headers ?? {}) };
  let body: string | Blob | undefined;
  if (typeof bad.body === 'string') body = bad.body;
  else if (bad.body instanceof Uint8Array) body = new Blob([new Uint8Array(bad.body)]);
  else if (bad.body !== undefined) {
    body = JSON.stringify(bad.body);
    headers['content-type'] ??= 'application/json';
  }
  return fetch(server.url + (bad.path ?? '/v1/pdf'), { method: bad.method ?? 'POST', headers, body });
}

test('bad requests answer their contract status and code with a sentence naming the field', { timeout: 180_000 }, async (t) => {
  assert.ok(CASES.length >= 40, `only ${CASES.length} cases`);
  const server = await startTestServer(t);

  for (const bad of CASES) {
    await t.test(`${bad.name} answers ${bad.status} ${bad.code}`, async () => {
      const response = await send(server, bad);
      const text = await response.text();
      assert.equal(response.status, bad.status, `status for ${bad.name}: ${text.slice(0, 300)}`);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.ok(response.headers.get('x-request-id'), 'X-Request-Id is missing');
      const body = JSON.parse(text) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body).sort(), ['code', 'detail'], `body is exactly {detail, code}: ${text.slice(0, 300)}`);
      assert.equal(body.code, bad.code, `code for ${bad.name}: ${String(body.detail)}`);
      const detail = body.detail as string;
      assert.equal(typeof detail, 'string');
      assert.match(detail, /\w+ \w+/, 'detail is a sentence of several words');
      if (bad.names) assert.ok(detail.includes(bad.names), `detail "${detail}" should name ${bad.names}`);
      assert.doesNotMatch(text, /\n\s+at |\.ts:\d+|node_modules|Error:/, 'no stack trace in the body');
      if (bad.status === 405) assert.equal(response.headers.get('allow'), 'POST');
    });
  }

  await t.test('the server still renders after every bad request', async () => {
    const response = await server.render({ html: '<h1>Still standing</h1>', options: { wait_until: 'load' } });
    assert.equal(response.status, 200);
    const pdf = await inspectPdf(await response.arrayBuffer());
    assert.equal(pdf.pages.length, 1);
    assert.match(pdf.text, /Still standing/);
  });
});

test('bad requests in parallel are all answered and leave the server rendering', { timeout: 60_000 }, async (t) => {
  const server = await startTestServer(t);
  const small = CASES.filter((bad) => bad.status !== 413);
  const responses = await Promise.all(small.map((bad) => send(server, bad).then(async (response) => ({ bad, status: response.status, body: await response.text() }))));
  for (const { bad, status, body } of responses) assert.equal(status, bad.status, `${bad.name}: ${body.slice(0, 200)}`);
  const response = await server.render({ html: '<p>after the storm</p>', options: { wait_until: 'load' } });
  assert.equal(response.status, 200);
  assert.match((await inspectPdf(await response.arrayBuffer())).text, /after the storm/);
});
