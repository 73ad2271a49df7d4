// POST /v1/pdf against a real Chromium: what the page had time to show (waits, time budget), the
// response headers (filename, request id) and url renders against loopback fixture servers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorOf, startTestServer } from '../helpers/start-app.ts';
import { startFixtureServer } from '../helpers/fixture-server.ts';
import { pdfOf, render } from '../helpers/render-options.ts';

function lateNode(delay: number): string {
  return `<p>Early node</p><script>setTimeout(() => { const node = document.createElement('p'); node.id = 'late'; node.textContent = 'Late node'; document.body.append(node); }, ${delay});</script>`;
}

test('waits and the time budget decide what the page had time to show', { timeout: 120_000 }, async (t) => {
  // Pages that never settle: one whose image never arrives (no load event), one that polls for ever (never network-idle).
  const slow = await startFixtureServer({
    '/hang': () => undefined,
    '/tick': (_req, res) => void res.writeHead(204).end(),
    '/stuck': '<p>stuck</p><img src="/hang">',
    '/busy': "<p>busy</p><script>setInterval(() => fetch('/tick').catch(() => {}), 100);</script>",
  });
  t.after(() => slow.close());
  const server = await startTestServer(t, { allowHosts: [`127.0.0.1:${slow.port}`] });

  await t.test('wait_for waits for a node that a script inserts late', async () => {
    const { pdf } = await render(server, lateNode(300), { wait_for: '#late' });
    assert.match(pdf.text, /Early node/);
    assert.match(pdf.text, /Late node/);
  });

  await t.test('wait_ms lets a timer-inserted node appear', async () => {
    const { pdf } = await render(server, lateNode(300), { wait_ms: 1500 });
    assert.match(pdf.text, /Late node/);
  });

  await t.test('without a wait the page is printed before a slow timer fires', async () => {
    // The whole render must end within timeout_ms (5 s): a node due after 10 s cannot be there.
    const { pdf } = await render(server, lateNode(10_000), { timeout_ms: 5000 });
    assert.match(pdf.text, /Early node/);
    assert.doesNotMatch(pdf.text, /Late node/);
  });

  await t.test('a wait_for selector that never appears answers 504 render_timeout', async () => {
    const response = await server.render({ html: '<p>nothing to wait for</p>', options: { wait_for: '#never', timeout_ms: 1000, wait_until: 'load' } });
    const error = await errorOf(response);
    assert.equal(error.status, 504);
    assert.equal(error.code, 'render_timeout');
    assert.match(error.detail, /timeout_ms/);
    assert.ok(response.headers.get('x-request-id'));
  });

  await t.test('a page whose load never finishes answers 504 render_timeout', async () => {
    const error = await errorOf(await server.render({ url: `${slow.url}/stuck`, options: { timeout_ms: 1000, wait_until: 'load' } }));
    assert.equal(error.status, 504);
    assert.equal(error.code, 'render_timeout');
    assert.match(error.detail, /1000 ms/);
  });

  await t.test('a page that never goes network-idle answers 504 render_timeout under networkidle0', async () => {
    const error = await errorOf(await server.render({ url: `${slow.url}/busy`, options: { timeout_ms: 1500, wait_until: 'networkidle0' } }));
    assert.equal(error.status, 504);
    assert.equal(error.code, 'render_timeout');
    // The same page is fine when the load event is enough.
    const { pdf } = await pdfOf(await server.render({ url: `${slow.url}/busy`, options: { timeout_ms: 5000, wait_until: 'load' } }));
    assert.equal(pdf.text, 'busy');
  });

  await t.test('a script that never yields answers 504 render_timeout', async () => {
    const error = await errorOf(await server.render({ html: '<p>spin</p><script>for (;;) {}</script>', options: { timeout_ms: 1000, wait_until: 'load' } }));
    assert.equal(error.status, 504);
    assert.equal(error.code, 'render_timeout');
  });

  await t.test('renders work again after timeouts', async () => {
    const { pdf } = await render(server, '<p>after the timeouts</p>');
    assert.equal(pdf.text, 'after the timeouts');
  });

  await t.test('an invalid wait_for selector answers 400 naming options.wait_for', async () => {
    const error = await errorOf(await server.render({ html: '<p>x</p>', options: { wait_for: 'p[', timeout_ms: 1000, wait_until: 'load' } }));
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid_request');
    assert.match(error.detail, /options\.wait_for/);
  });
});

/** Parses the filename*=UTF-8''... part of a Content-Disposition header. */
function extendedFilename(header: string): string | undefined {
  const match = /filename\*=UTF-8''([^;\s]+)/i.exec(header);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

function quotedFilename(header: string): string | undefined {
  return /filename="((?:[^"\\]|\\.)*)"/.exec(header)?.[1];
}

test('responses carry the filename and the request id', { timeout: 60_000 }, async (t) => {
  const server = await startTestServer(t);
  const html = '<p>named</p>';

  await t.test('filename sets an inline Content-Disposition, quoted and RFC 5987 encoded', async () => {
    const response = await server.render({ html, filename: 'report-2024.pdf', options: { wait_until: 'load' } });
    await pdfOf(response);
    assert.equal(response.headers.get('content-disposition'), `inline; filename="report-2024.pdf"; filename*=UTF-8''report-2024.pdf`);
  });

  await t.test('a non-ASCII filename gets an ASCII fallback and an exact UTF-8 filename*', async () => {
    const name = 'Résumé – 東京 2024.pdf';
    const response = await server.render({ html, filename: name, options: { wait_until: 'load' } });
    await pdfOf(response);
    const header = response.headers.get('content-disposition') ?? '';
    assert.match(header, /^inline; /);
    assert.match(header, /^[\x20-\x7e]+$/, 'the header is plain ASCII');
    assert.equal(extendedFilename(header), name);
    const fallback = quotedFilename(header);
    assert.ok(fallback, `no quoted filename in ${header}`);
    assert.match(fallback, /^R.sum. . .. 2024\.pdf$/);
  });

  await t.test('quotes, semicolons and RFC 5987 specials in a filename cannot break the header', async () => {
    const name = `say "hi"; it's (really) 100% *done*.pdf`;
    const response = await server.render({ html, filename: name, options: { wait_until: 'load' } });
    await pdfOf(response);
    const header = response.headers.get('content-disposition') ?? '';
    assert.equal(extendedFilename(header), name);
    assert.doesNotMatch(quotedFilename(header) ?? '"', /"/);
    // Exactly two parameters after the type: the quoted name and the encoded one.
    assert.equal(header.replace(/"[^"]*"/g, '""').split(';').length, 3, header);
  });

  await t.test('every response carries an X-Request-Id, each one different', async () => {
    const responses = [
      await server.render({ html, options: { wait_until: 'load' } }),
      await server.render({ html: '<p>x</p>', options: { scale: 9 } }),
      await server.request('GET', '/health'),
      await server.request('GET', '/no/such/route'),
      await server.request('GET', '/v1/pdf'),
    ];
    const ids = responses.map((response) => response.headers.get('x-request-id'));
    for (const [index, id] of ids.entries()) assert.ok(id && id.length >= 8, `response ${index} (${responses[index]!.status}) has no request id`);
    assert.equal(new Set(ids).size, ids.length, `request ids repeat: ${ids.join(', ')}`);
    await Promise.all(responses.map((response) => response.arrayBuffer()));
  });

  await t.test("the caller's X-Request-Id is echoed on success and on error", async () => {
    const ok = await server.render({ html, options: { wait_until: 'load' } }, { 'X-Request-Id': 'order-4711.render@client:1' });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('x-request-id'), 'order-4711.render@client:1');
    await ok.arrayBuffer();
    const bad = await server.render({ html, options: { scale: 9 } }, { 'X-Request-Id': 'order-4712' });
    assert.equal(bad.status, 400);
    assert.equal(bad.headers.get('x-request-id'), 'order-4712');
    await bad.arrayBuffer();
  });

  await t.test('an X-Request-Id that is not a sane token is replaced, not echoed', async () => {
    for (const sent of ['has spaces in it', 'x'.repeat(300), '<script>']) {
      const response = await server.request('GET', '/health', undefined, { 'X-Request-Id': sent });
      const id = response.headers.get('x-request-id');
      assert.ok(id, 'a request id is still sent');
      assert.notEqual(id, sent);
      await response.arrayBuffer();
    }
  });
});

/** A loopback port that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('url renders load allowed fixture pages and report what went wrong', { timeout: 60_000 }, async (t) => {
  const fixture = await startFixtureServer({
    '/page': '<title>Fixture</title><h1>From the fixture server</h1><p>Second line</p>',
    '/styled': '<link rel="stylesheet" href="/style.css"><p class="hidden">Hidden by CSS</p><p>Visible</p>',
    '/style.css': (_req, res) => void res.writeHead(200, { 'content-type': 'text/css' }).end('.hidden { display: none }'),
    '/moved': (_req, res) => void res.writeHead(302, { location: '/page' }).end(),
    '/gone': (_req, res) => void res.writeHead(410, { 'content-type': 'text/html' }).end('<p>gone</p>'),
    '/broken': (_req, res) => void res.writeHead(500, { 'content-type': 'text/html' }).end('<p>server error</p>'),
  });
  t.after(() => fixture.close());
  const unreachable = await closedPort();
  const notAllowed = await closedPort();
  const server = await startTestServer(t, { allowHosts: [`127.0.0.1:${fixture.port}`, `127.0.0.1:${unreachable}`] });
  const renderUrl = (url: string) => server.render({ url, options: { wait_until: 'load', timeout_ms: 10_000 } });

  await t.test('a url render of an allowed fixture page has its text in the PDF', async () => {
    const { pdf } = await pdfOf(await renderUrl(`${fixture.url}/page`));
    assert.equal(pdf.pages.length, 1);
    assert.equal(pdf.text, 'From the fixture server Second line');
  });

  await t.test("a url render loads the page's stylesheet from its origin", async () => {
    const { pdf } = await pdfOf(await renderUrl(`${fixture.url}/styled`));
    assert.equal(pdf.text, 'Visible');
    assert.ok(fixture.hits.includes('GET /style.css'));
  });

  await t.test('a url render follows a redirect within the allowed host', async () => {
    const { pdf } = await pdfOf(await renderUrl(`${fixture.url}/moved`));
    assert.match(pdf.text, /From the fixture server/);
  });

  for (const [path, status] of [
    ['/missing', 404],
    ['/gone', 410],
    ['/broken', 500],
  ] as const) {
    await t.test(`a url answering ${status} gives 422 navigation_failed`, async () => {
      const error = await errorOf(await renderUrl(`${fixture.url}${path}`));
      assert.equal(error.status, 422);
      assert.equal(error.code, 'navigation_failed');
      assert.match(error.detail, new RegExp(String(status)));
    });
  }

  await t.test('an unreachable url gives 422 navigation_failed', async () => {
    const error = await errorOf(await renderUrl(`http://127.0.0.1:${unreachable}/`));
    assert.equal(error.status, 422);
    assert.equal(error.code, 'navigation_failed');
    assert.match(error.detail, /url/);
  });

  await t.test('ALLOW_HOSTS opens only the ports it names', async () => {
    const error = await errorOf(await renderUrl(`http://127.0.0.1:${notAllowed}/`));
    assert.equal(error.status, 400);
    assert.equal(error.code, 'url_blocked');
  });

  await t.test('a redirect of the url to a blocked address answers 400 url_blocked', async () => {
    const canary = await startFixtureServer({ '/': '<p>canary</p>' });
    t.after(() => canary.close());
    const redirector = await startFixtureServer({ '/': (_req, res) => void res.writeHead(302, { location: `${canary.url}/` }).end() });
    t.after(() => redirector.close());
    const guarded = await startTestServer(t, { allowHosts: [`127.0.0.1:${redirector.port}`] });
    const response = await guarded.render({ url: `${redirector.url}/`, options: { wait_until: 'load' } });
    assert.deepEqual(canary.hits, [], 'the blocked address was reached');
    assert.equal(response.status, 400);
    assert.equal((await errorOf(response)).code, 'url_blocked');
  });
});
