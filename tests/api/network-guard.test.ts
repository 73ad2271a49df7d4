// The network guard against a real Chromium (docs/api.md#network-guard): page vectors. Canary servers
// listen on loopback ports and addresses that ALLOW_HOSTS does not open; every vector below must leave
// them untouched, while the same vectors aimed at the allowed fixture reach it (so a refusal is
// the guard's doing, not a vector that never fired). Names resolve through a fake resolver, never
// real DNS, and every address used is a loopback one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { startTestServer } from '../helpers/start-app.ts';
import { fakeResolver, startRecordingServer } from '../helpers/canary.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { startCanaries, assertUntouched } from '../helpers/network-guard.ts';

/** Log lines the server wrote at warn level and above. */
function captureLog(): { log: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'warn' }, sink), lines };
}

// Each html vector makes one kind of request to `${base}/v/<name>`; `control: false` where the
// positive control cannot show a hit by path (TLS, or a request Chromium itself never makes).
interface HtmlVector {
  name: string;
  html: (base: string) => string;
  control?: boolean;
}

const ws = (base: string) => base.replace(/^http/, 'ws');

const HTML_VECTORS: HtmlVector[] = [
  { name: 'img', html: (b) => `<img src="${b}/v/img">` },
  { name: 'img-srcset', html: (b) => `<img srcset="${b}/v/img-srcset 1x">` },
  { name: 'script', html: (b) => `<script src="${b}/v/script"></script>` },
  { name: 'module-import', html: (b) => `<script type="module">import("${b}/v/module-import").catch(() => {});</script>` },
  { name: 'stylesheet', html: (b) => `<link rel="stylesheet" href="${b}/v/stylesheet">` },
  { name: 'css-import', html: (b) => `<style>@import url("${b}/v/css-import");</style>` },
  { name: 'font-face', html: (b) => `<style>@font-face { font-family: Probe; src: url("${b}/v/font-face"); }</style><p style="font-family: Probe">font</p>` },
  { name: 'css-background', html: (b) => `<div style="width: 20px; height: 20px; background-image: url('${b}/v/css-background')"></div>` },
  { name: 'iframe', html: (b) => `<iframe src="${b}/v/iframe"></iframe>` },
  { name: 'object', html: (b) => `<object data="${b}/v/object" type="text/html"></object>` },
  { name: 'video', html: (b) => `<video src="${b}/v/video" preload="auto" autoplay muted></video>` },
  { name: 'svg-image', html: (b) => `<svg width="20" height="20"><image href="${b}/v/svg-image" width="20" height="20"/></svg>` },
  { name: 'fetch', html: (b) => `<script>fetch("${b}/v/fetch").catch(() => {});</script>` },
  {
    name: 'fetch-post-no-cors',
    html: (b) => `<script>fetch("${b}/v/fetch-post-no-cors", { method: "POST", mode: "no-cors", body: "x" }).catch(() => {});</script>`,
  },
  { name: 'xhr', html: (b) => `<script>const x = new XMLHttpRequest(); x.open("GET", "${b}/v/xhr"); x.send();</script>` },
  { name: 'websocket', html: (b) => `<script>try { new WebSocket("${ws(b)}/v/websocket"); } catch (e) {}</script>` },
  { name: 'eventsource', html: (b) => `<script>const s = new EventSource("${b}/v/eventsource"); setTimeout(() => s.close(), 300);</script>` },
  { name: 'beacon', html: (b) => `<script>navigator.sendBeacon("${b}/v/beacon", "x");</script>` },
  { name: 'prefetch', html: (b) => `<link rel="prefetch" href="${b}/v/prefetch">` },
  { name: 'preload', html: (b) => `<link rel="preload" as="fetch" crossorigin href="${b}/v/preload">` },
  {
    name: 'worker-fetch',
    html: (b) => `<script>new Worker(URL.createObjectURL(new Blob(['fetch("${b}/v/worker-fetch").catch(() => {})'], { type: 'text/javascript' })));</script>`,
  },
  {
    name: 'form-post',
    html: (b) =>
      `<iframe name="sink" style="display: none"></iframe><form id="f" method="post" action="${b}/v/form-post" target="sink"><input name="a" value="1"></form><script>document.getElementById("f").submit();</script>`,
  },
  { name: 'https-fetch', html: (b) => `<script>fetch("${b.replace(/^http/, 'https')}/v/https-fetch").catch(() => {});</script>`, control: false },
  { name: 'wss', html: (b) => `<script>try { new WebSocket("${ws(b).replace(/^ws/, 'wss')}/v/wss"); } catch (e) {}</script>`, control: false },
];

// Navigations of the render's own document: each gets a render of its own.
const NAVIGATION_VECTORS: HtmlVector[] = [
  { name: 'meta-refresh', html: (b) => `<meta http-equiv="refresh" content="0; url=${b}/v/meta-refresh"><p>meta refresh</p>` },
  { name: 'location', html: (b) => `<p>location</p><script>location.href = "${b}/v/location";</script>` },
];

test('the network guard keeps pages away from every address ALLOW_HOSTS does not open', { timeout: 240_000 }, async (t) => {
  const fixture = await startRecordingServer('127.0.0.1', 0, {
    '/page': '<p>Fixture page</p>',
    '/v/stylesheet': (_req, res) => void res.writeHead(200, { 'content-type': 'text/css' }).end('p { color: black }'),
  });
  t.after(() => fixture.close());
  const canaries = await startCanaries(fixture.port);
  t.after(() => Promise.all(canaries.all.map((canary) => canary.close())));
  const { log, lines } = captureLog();
  const resolve = fakeResolver({
    'rebind.test': ['127.0.0.1'],
    'sibling.test': ['127.0.0.2'],
    'v6.test': ['::1'],
    'allowed.test': ['127.0.0.1'],
    'mixed.test': ['127.0.0.1', '127.0.0.2'],
  });
  const server = await startTestServer(t, { allowHosts: [`127.0.0.1:${fixture.port}`] }, { resolve, log });
  const C = canaries.loopback.url;

  await t.test('positive control: every html vector aimed at the allowed fixture reaches it', async () => {
    const html = `${HTML_VECTORS.map((vector) => vector.html(fixture.url)).join('\n')}<p>controls</p>`;
    const response = await server.render({ html, options: { wait_until: 'networkidle0', timeout_ms: 20_000 } });
    assert.equal(response.status, 200, await response.clone().text());
    const reached = new Set(fixture.paths());
    const missing = HTML_VECTORS.filter((vector) => vector.control !== false && !reached.has(`/v/${vector.name}`)).map((vector) => vector.name);
    assert.deepEqual(missing, [], `vectors that never reached the fixture: ${missing.join(', ')} (hits: ${fixture.hits.join(', ')})`);
  });

  for (const vector of HTML_VECTORS) {
    await t.test(`html ${vector.name} to a loopback port not in ALLOW_HOSTS is refused and the render goes on`, async () => {
      const response = await server.render({ html: `<p>Still rendered</p>${vector.html(C)}`, options: { timeout_ms: 20_000 } });
      assert.equal(response.status, 200, await response.clone().text());
      assert.match((await inspectPdf(await response.arrayBuffer())).text, /Still rendered/);
      assertUntouched(canaries, vector.name);
    });
  }

  // Spellings and names of loopback addresses, through the html path (fetch and img).
  const spelled: [string, string][] = [
    ['decimal', `http://2130706433:${canaries.loopback.port}`],
    ['hex', `http://0x7f000001:${canaries.loopback.port}`],
    ['octal', `http://0177.0.0.1:${canaries.loopback.port}`],
    ['short', `http://127.1:${canaries.loopback.port}`],
    ['localhost', `http://localhost:${canaries.loopback.port}`],
    ['upper case, trailing dot', `http://LOCALHOST.:${canaries.loopback.port}`],
    ['userinfo naming the allowed host', `http://127.0.0.1:${fixture.port}@127.0.0.1:${canaries.loopback.port}`],
    ['IPv4-mapped IPv6', `http://[::ffff:127.0.0.1]:${canaries.loopback.port}`],
    ['IPv6 loopback', canaries.v6.url],
    ['unspecified 0.0.0.0', `http://0.0.0.0:${canaries.loopback.port}`],
    ['a name that resolves to loopback', `http://rebind.test:${canaries.loopback.port}`],
    ['another loopback address on the allowed port', canaries.sibling.url],
    ['a name resolving to that address on the allowed port', `http://sibling.test:${fixture.port}`],
    ['a name resolving to an allowed and a refused address', `http://mixed.test:${fixture.port}`],
    ['a name resolving to IPv6 loopback', `http://v6.test:${canaries.v6.port}`],
  ];
  for (const [what, base] of spelled) {
    await t.test(`html fetch and img to ${what} are refused`, async () => {
      const html = `<p>Still rendered</p><img src="${base}/v/img"><script>fetch("${base}/v/fetch").catch(() => {});</script>`;
      const response = await server.render({ html, options: { timeout_ms: 20_000 } });
      assert.equal(response.status, 200, await response.clone().text());
      assertUntouched(canaries, what);
    });
  }

  for (const vector of NAVIGATION_VECTORS) {
    await t.test(`html ${vector.name} away to a blocked address does not reach it`, async () => {
      // The render's document is replaced before it loads, so the render may time out (504): what
      // matters here is that the blocked address is never reached.
      const response = await server.render({ html: vector.html(C), options: { wait_until: 'load', wait_ms: 300, timeout_ms: 3000 } });
      await response.arrayBuffer();
      assert.ok([200, 422, 504].includes(response.status), `status ${response.status}`);
      assertUntouched(canaries, vector.name);
    });
  }

  await t.test('a blocked sub-resource is logged with its host, port and reason', () => {
    const blocked = lines.filter((line) => line.msg === 'egress blocked');
    assert.ok(
      blocked.some((line) => line.host === '127.0.0.1' && line.port === canaries.loopback.port && /loopback/.test(String(line.reason))),
      JSON.stringify(blocked.slice(0, 3)),
    );
    assert.ok(blocked.some((line) => line.host === 'rebind.test' && /127\.0\.0\.1/.test(String(line.reason))));
  });

  await t.test('a name resolving to the allowed address and port is reachable (ALLOW_HOSTS opens the address, not a spelling)', async () => {
    const response = await server.render({ html: `<img src="http://allowed.test:${fixture.port}/v/by-name">`, options: { timeout_ms: 20_000 } });
    assert.equal(response.status, 200);
    await response.arrayBuffer();
    assert.ok(fixture.paths().includes('/v/by-name'));
  });

  await t.test('no canary was reached at any point, late requests included', async () => {
    await server.app.close();
    assertUntouched(canaries, 'the whole run');
  });
});
