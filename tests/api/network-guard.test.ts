// The network guard against a real Chromium (docs/api.md#network-guard). Canary servers listen on
// loopback ports and addresses that ALLOW_HOSTS does not open; every vector below must leave
// them untouched, while the same vectors aimed at the allowed fixture reach it (so a refusal is
// the guard's doing, not a vector that never fired). Names resolve through a fake resolver, never
// real DNS, and every address used is a loopback one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { errorOf, startTestServer } from '../helpers/start-app.ts';
import { fakeResolver, startRecordingServer, startUdpCanary, type RecordingServer } from '../helpers/canary.ts';
import { inspectPdf } from '../helpers/pdf.ts';

interface Canaries {
  /** 127.0.0.1 on a port ALLOW_HOSTS does not name. */
  loopback: RecordingServer;
  /** 127.0.0.2 on the fixture's own (allowed) port: ALLOW_HOSTS 127.0.0.1:<port> must not open it. */
  sibling: RecordingServer;
  /** [::1] on a port of its own. */
  v6: RecordingServer;
  all: RecordingServer[];
}

async function startCanaries(fixturePort: number): Promise<Canaries> {
  const loopback = await startRecordingServer('127.0.0.1');
  const sibling = await startRecordingServer('127.0.0.2', fixturePort);
  const v6 = await startRecordingServer('::1');
  return { loopback, sibling, v6, all: [loopback, sibling, v6] };
}

function assertUntouched(canaries: Canaries, what: string): void {
  for (const canary of canaries.all) {
    assert.equal(canary.connections, 0, `${what}: canary ${canary.url} was reached (${canary.hits.join(', ') || 'a bare connection'})`);
  }
}

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

test('pages cannot open windows, dialogs, downloads or WebRTC paths around the render', { timeout: 120_000 }, async (t) => {
  const fixture = await startRecordingServer('127.0.0.1', 0, {
    '/popup': '<p>POPUP PAGE</p><script>setInterval(() => fetch("/popup-alive").catch(() => {}), 20);</script>',
    '/file.bin': (_req, res) =>
      void res
        .writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="quire-download-probe.bin"' })
        .end('x'.repeat(1000)),
  });
  t.after(() => fixture.close());
  const udp = await startUdpCanary();
  t.after(() => udp.close());
  const tcp = await startRecordingServer('127.0.0.1');
  t.after(() => tcp.close());
  const server = await startTestServer(t, { renderConcurrency: 1, allowHosts: [`127.0.0.1:${fixture.port}`] });
  const text = async (html: string, options: Record<string, unknown> = {}) => {
    // The default 30 s budget: the popups below share the opener's renderer until they are closed, and
    // on a machine loaded many times over (CI beside other work) their scripts once kept the opener's
    // load past 10 s. What is asserted is that nothing hangs for good, not how fast.
    const response = await server.render({ html, options: { wait_until: 'load', ...options } });
    assert.equal(response.status, 200, await response.clone().text());
    return (await inspectPdf(await response.arrayBuffer())).text;
  };

  await t.test('alert, confirm and prompt do not hold the render', async () => {
    assert.equal(await text('<script>alert("a"); confirm("b"); prompt("c");</script><p>After the dialogs</p>'), 'After the dialogs');
  });

  await t.test('window.open neither hangs the render nor gets printed, and leaves nothing for the next render', async () => {
    const opener = `<p>Opener page</p><script>
      const w = window.open('${fixture.url}/popup');
      const blank = window.open('about:blank');
      if (blank) blank.document.write('<p>POPUP TEXT</p><script>setInterval(() => { document.cookie = "popup=1; domain=render.invalid"; }, 5)<\\/script>');
      window.open('${fixture.url}/popup', '_blank', 'noopener');
    </script>`;
    assert.equal(await text(opener, { wait_ms: 300 }), 'Opener page');
    const next = await text(
      '<p id="c"></p><script>setTimeout(() => { document.getElementById("c").textContent = "cookies:" + document.cookie + ";windows:" + (window.opener ? "opener" : "none"); document.getElementById("c").id = "done"; }, 200);</script>',
      { wait_for: '#done' },
    );
    assert.equal(next, 'cookies:;windows:none');
    // The popups were closed: nothing of theirs is still running.
    const alive = fixture.paths().filter((path) => path === '/popup-alive').length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(fixture.paths().filter((path) => path === '/popup-alive').length, alive, 'a popup is still running');
  });

  await t.test('a beforeunload handler does not block the next render on the same page', async () => {
    await text('<p>Leaving</p><script>addEventListener("beforeunload", (e) => { e.preventDefault(); e.returnValue = "stay"; return "stay"; });</script>');
    assert.equal(await text('<p>Next render</p>'), 'Next render');
  });

  await t.test('downloads are refused: a page that starts one still renders and no file is written', async () => {
    // An attachment in a frame; not waiting for the load event, which a frame whose navigation
    // became a refused download does not always fire. (A download link clicked, or the page sent to
    // an attachment, while the document loads can keep the render from finishing until its timeout,
    // guard or not: a renderer issue, noted in README.)
    const page = `<p>Download page</p><iframe src="${fixture.url}/file.bin"></iframe>`;
    assert.match(await text(page, { wait_until: 'domcontentloaded', wait_ms: 500 }), /Download page/);
    // Where Chromium would put it: the profile's or the user's Downloads folder, the working folder.
    const places = [os.tmpdir(), path.join(os.homedir(), 'Downloads'), process.cwd(), server.dataDir].filter((place) => existsSync(place));
    const found = execFileSync('find', [...places, '-maxdepth', '3', '-name', 'quire-download-probe.bin*'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    assert.equal(found, '', `a download was written: ${found}`);
    assert.ok(fixture.paths().includes('/file.bin'), 'the download was really started');
  });

  await t.test('WebRTC reaches no STUN/TURN server directly and reveals no local address', async () => {
    const page = `<pre id="out">waiting</pre><script>
      const lines = [];
      const pc = new RTCPeerConnection({ iceServers: [
        { urls: 'stun:127.0.0.1:${udp.port}' },
        { urls: ['turn:127.0.0.1:${udp.port}?transport=udp', 'turn:127.0.0.1:${tcp.port}?transport=tcp'], username: 'u', credential: 'p' },
      ] });
      pc.createDataChannel('x');
      pc.onicecandidate = (e) => { if (e.candidate) lines.push(e.candidate.candidate); };
      const finish = () => { const out = document.getElementById('out'); out.textContent = 'CANDIDATES ' + (lines.join(' | ') || 'none'); out.id = 'done'; };
      pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === 'complete') finish(); };
      setTimeout(finish, 3000);
      pc.createOffer().then((offer) => pc.setLocalDescription(offer));
    </script>`;
    const printed = await text(page, { wait_for: '#done' });
    assert.match(printed, /CANDIDATES/);
    assert.doesNotMatch(printed, /typ (host|srflx)/, printed);
    assert.equal(udp.datagrams, 0, 'a datagram reached the UDP canary');
    assert.equal(tcp.connections, 0, `the TCP TURN canary was reached: ${tcp.hits.join(', ')}`);
  });
});

test('NETWORK_GUARD=off is really off (bench and trusted content only)', { timeout: 60_000 }, async (t) => {
  const target = await startRecordingServer('127.0.0.1');
  t.after(() => target.close());
  const server = await startTestServer(t, { networkGuard: false });
  const response = await server.render({ html: `<img src="${target.url}/v/img"><p>unguarded</p>`, options: { wait_until: 'load' } });
  assert.equal(response.status, 200);
  await response.arrayBuffer();
  assert.ok(target.paths().includes('/v/img'), 'with the guard off a loopback page is reached directly');
  const scheme = await errorOf(await server.render({ url: 'file:///etc/passwd' }));
  assert.equal(scheme.code, 'url_blocked', 'non-http(s) schemes stay refused');
});
