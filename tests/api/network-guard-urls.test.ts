// The network guard on url renders and their redirects (docs/api.md#network-guard): a blocked
// address answers 400 url_blocked and its canary is never reached. Every address is a loopback one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorOf, startTestServer } from '../helpers/start-app.ts';
import { fakeResolver, startRecordingServer } from '../helpers/canary.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { startCanaries, assertUntouched } from '../helpers/network-guard.ts';

test('url renders and their redirects: a blocked address answers 400 url_blocked and is never reached', { timeout: 240_000 }, async (t) => {
  const fixtureRoutes: Record<string, (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void> = {};
  const fixture = await startRecordingServer('127.0.0.1', 0, fixtureRoutes);
  t.after(() => fixture.close());
  const canaries = await startCanaries(fixture.port);
  t.after(() => Promise.all(canaries.all.map((canary) => canary.close())));
  const resolve = fakeResolver({ 'rebind.test': ['127.0.0.1'], 'v6.test': ['::1'], 'sibling.test': ['127.0.0.2'] });
  const server = await startTestServer(t, { allowHosts: [`127.0.0.1:${fixture.port}`] }, { resolve });
  const Q = canaries.loopback.port;
  fixtureRoutes['/page'] = (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Fixture page</p>');

  const URL_VECTORS: [string, string][] = [
    ['loopback', `http://127.0.0.1:${Q}/`],
    ['localhost', `http://localhost:${Q}/`],
    ['decimal', `http://2130706433:${Q}/`],
    ['hex', `http://0x7f000001:${Q}/`],
    ['octal', `http://0177.0.0.1:${Q}/`],
    ['short form', `http://127.1:${Q}/`],
    ['upper case and trailing dot', `http://LOCALHOST.:${Q}/`],
    ['userinfo naming the allowed host', `http://127.0.0.1:${fixture.port}@127.0.0.1:${Q}/`],
    ['IPv4-mapped IPv6', `http://[::ffff:127.0.0.1]:${Q}/`],
    ['IPv4-mapped IPv6 in hex', `http://[::ffff:7f00:1]:${Q}/`],
    ['IPv6 loopback', `${canaries.v6.url}/`],
    ['unspecified', `http://0.0.0.0:${Q}/`],
    ['https to loopback', `https://127.0.0.1:${Q}/`],
    ['a name resolving to loopback', `http://rebind.test:${Q}/`],
    ['another loopback address on the allowed port', `${canaries.sibling.url}/`],
    ['file:', 'file:///etc/passwd'],
    ['ftp:', `ftp://127.0.0.1:${Q}/`],
    ['data:', 'data:text/html,<p>x</p>'],
    ['javascript:', 'javascript:alert(1)'],
    ['chrome:', 'chrome://version'],
    ['view-source:', `view-source:${fixture.url}/page`],
  ];
  for (const [what, url] of URL_VECTORS) {
    await t.test(`url ${what} answers 400 url_blocked`, async () => {
      const error = await errorOf(await server.render({ url, options: { wait_until: 'load' } }));
      assert.equal(error.status, 400);
      assert.equal(error.code, 'url_blocked');
      assertUntouched(canaries, what);
    });
  }

  const REDIRECT_VECTORS: [number, string, string][] = [
    [302, 'loopback', `http://127.0.0.1:${Q}/`],
    [301, 'decimal', `http://2130706433:${Q}/`],
    [307, 'IPv4-mapped IPv6', `http://[::ffff:127.0.0.1]:${Q}/`],
    [308, 'a name resolving to loopback', `http://rebind.test:${Q}/`],
    [303, 'IPv6 loopback', `${canaries.v6.url}/`],
    [302, 'https to loopback', `https://127.0.0.1:${Q}/`],
    [302, 'another loopback address on the allowed port', `${canaries.sibling.url}/`],
    [302, 'file:', 'file:///etc/passwd'],
  ];
  for (const [index, [status, what, location]] of REDIRECT_VECTORS.entries()) {
    fixtureRoutes[`/r/${index}`] = (_req, res) => void res.writeHead(status, { location }).end();
    await t.test(`a ${status} redirect of the url to ${what} answers 400 url_blocked`, async () => {
      const error = await errorOf(await server.render({ url: `${fixture.url}/r/${index}`, options: { wait_until: 'load', timeout_ms: 10_000 } }));
      assert.equal(error.status, 400, error.detail);
      assert.equal(error.code, 'url_blocked');
      assertUntouched(canaries, `redirect to ${what}`);
    });
  }

  fixtureRoutes['/chain/1'] = (_req, res) => void res.writeHead(302, { location: '/chain/2' }).end();
  fixtureRoutes['/chain/2'] = (_req, res) => void res.writeHead(302, { location: `http://127.0.0.1:${Q}/` }).end();
  await t.test('a redirect chain that ends at a blocked address answers 400 url_blocked', async () => {
    const error = await errorOf(await server.render({ url: `${fixture.url}/chain/1`, options: { wait_until: 'load' } }));
    assert.equal(error.code, 'url_blocked');
    assert.ok(fixture.paths().includes('/chain/2'), 'the allowed hops were followed');
    assertUntouched(canaries, 'redirect chain');
  });

  fixtureRoutes['/frame-redirect'] = (_req, res) => void res.writeHead(302, { location: `http://127.0.0.1:${Q}/` }).end();
  fixtureRoutes['/with-frame'] = (_req, res) =>
    void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Outer page</p><iframe src="/frame-redirect"></iframe>');
  await t.test('a frame of a url render redirected to a blocked address fails alone: the page still renders', async () => {
    const response = await server.render({ url: `${fixture.url}/with-frame`, options: { wait_until: 'load' } });
    assert.equal(response.status, 200);
    assert.match((await inspectPdf(await response.arrayBuffer())).text, /Outer page/);
    assertUntouched(canaries, 'frame redirect');
  });

  fixtureRoutes['/sw-page'] = (_req, res) =>
    void res.writeHead(200, { 'content-type': 'text/html' }).end(
      `<p id="state">waiting</p><script>
      navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then(() => { document.getElementById('state').id = 'done'; }, () => { document.getElementById('state').id = 'done'; });
      </script>`,
    );
  fixtureRoutes['/sw.js'] = (_req, res) =>
    void res.writeHead(200, { 'content-type': 'text/javascript' }).end(
      `try { importScripts('http://127.0.0.1:${Q}/v/sw-import'); } catch (e) {}
      fetch('${fixture.url}/v/sw-control').catch(() => {});
      fetch('http://127.0.0.1:${Q}/v/sw-fetch').catch(() => {});`,
    );
  await t.test("a service worker's importScripts and fetch to a blocked address are refused", async () => {
    const response = await server.render({ url: `${fixture.url}/sw-page`, options: { wait_until: 'load', wait_for: '#done', wait_ms: 500 } });
    assert.equal(response.status, 200, await response.clone().text());
    await response.arrayBuffer();
    assert.ok(fixture.paths().includes('/sw.js'), 'the service worker script was loaded');
    assert.ok(fixture.paths().includes('/v/sw-control'), 'the service worker ran (its allowed fetch arrived)');
    assertUntouched(canaries, 'service worker');
  });

  await t.test('no canary was reached at any point', async () => {
    await server.app.close();
    assertUntouched(canaries, 'the whole run');
  });
});
