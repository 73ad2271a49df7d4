// Render isolation: nothing one render leaves behind (cookies, storage, cache, service workers,
// window globals, running timers) is visible to the next render, for html and url sources.
// One render slot, so consecutive renders run on the same worker page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startTestServer, type TestServer } from '../helpers/start-app.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { inspectPdf } from '../helpers/pdf.ts';

// Plants everything it can, then reports (into the PDF) what it managed to set, so a clean
// second render is not clean merely because nothing was ever planted.
function plantScript(fixture: string): string {
  return `<script>
  const set = [];
  const mark = (name, fn) => { try { fn(); set.push(name); } catch (e) {} };
  mark('cookie', () => { document.cookie = 'own=1'; if (!document.cookie.includes('own=1')) throw 0; });
  mark('parentcookie', () => { document.cookie = 'parent=1; domain=' + location.hostname.split('.').slice(-2).join('.'); });
  mark('localstorage', () => localStorage.setItem('planted', '1'));
  mark('sessionstorage', () => sessionStorage.setItem('planted', '1'));
  window.plantedGlobal = 'yes'; set.push('global');
  setInterval(() => {
    try { document.cookie = 'timer=1; domain=' + location.hostname.split('.').slice(-2).join('.'); } catch (e) {}
    try { document.cookie = 'timerown=1'; localStorage.setItem('timer', '1'); } catch (e) {}
  }, 1);
  set.push('timer');
  const done = [];
  done.push(new Promise((resolve) => { const open = indexedDB.open('planted'); open.onupgradeneeded = () => open.result.createObjectStore('s'); open.onsuccess = () => { set.push('indexeddb'); resolve(); }; open.onerror = resolve; }));
  done.push(fetch('${fixture}/cached.js').then(() => set.push('cachedfetch')).catch(() => {}));
  done.push(fetch('${fixture}/set-cookie', { credentials: 'include' }).then(() => set.push('thirdpartycookie')).catch(() => {}));
  if (window.caches && window.isSecureContext) done.push(caches.open('planted').then((c) => c.put('/x', new Response('x'))).then(() => set.push('cachestorage')).catch(() => {}));
  if (navigator.serviceWorker && window.isSecureContext) done.push(navigator.serviceWorker.register('/sw.js').then(() => set.push('serviceworker')).catch(() => {}));
  Promise.all(done).then(() => { const p = document.createElement('p'); p.id = 'done'; p.textContent = 'SET ' + set.sort().join(' '); document.body.appendChild(p); });
</script>`;
}

function checkScript(fixture: string): string {
  return `<script>
  const seen = [];
  const parts = document.cookie.split(';').map((s) => s.trim()).filter(Boolean);
  for (const part of parts) seen.push('cookie:' + part);
  try { if (localStorage.length) seen.push('localstorage:' + Object.keys(localStorage).join('+')); } catch (e) {}
  try { if (sessionStorage.length) seen.push('sessionstorage'); } catch (e) {}
  if (window.plantedGlobal) seen.push('global');
  const checks = [];
  checks.push(indexedDB.databases ? indexedDB.databases().then((list) => { if (list.length) seen.push('indexeddb'); }) : Promise.resolve());
  checks.push(fetch('${fixture}/cached.js').catch(() => {}));
  checks.push(fetch('${fixture}/echo-cookie', { credentials: 'include' }).then((r) => r.text()).then((t) => { if (t) seen.push('thirdpartycookie:' + t); }).catch(() => {}));
  if (window.caches && window.isSecureContext) checks.push(caches.keys().then((keys) => { if (keys.length) seen.push('cachestorage'); }));
  if (navigator.serviceWorker && window.isSecureContext) checks.push(navigator.serviceWorker.getRegistrations().then((r) => { if (r.length) seen.push('serviceworker'); }));
  if (navigator.serviceWorker && navigator.serviceWorker.controller) seen.push('controlled-by-serviceworker');
  // Give a leaked timer of the previous page every chance to write before we look again.
  checks.push(new Promise((resolve) => setTimeout(resolve, 150)).then(() => {
    if (document.cookie.includes('timer')) seen.push('timer-cookie');
    try { if (localStorage.getItem('timer')) seen.push('timer-storage'); } catch (e) {}
  }));
  Promise.all(checks).then(() => { const p = document.createElement('p'); p.id = 'done'; p.textContent = 'SEEN ' + (seen.length ? seen.join(' ') : 'nothing'); document.body.appendChild(p); });
</script>`;
}

interface Fixture {
  server: FixtureServer;
  cachedHits: () => number;
}

async function startIsolationFixture(): Promise<Fixture> {
  let cachedHits = 0;
  const cors = (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
    res.setHeader('Access-Control-Allow-Credentials', 'true');
  };
  let fixtureUrl = '';
  const server = await startFixtureServer({
    '/cached.js': (req, res) => {
      cachedHits++;
      cors(req, res);
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'public, max-age=3600' }).end('// cached');
    },
    '/set-cookie': (req, res) => {
      cors(req, res);
      res.writeHead(200, { 'set-cookie': 'tp=1; Path=/; Max-Age=3600', 'content-type': 'text/plain' }).end('ok');
    },
    '/echo-cookie': (req, res) => {
      cors(req, res);
      res.writeHead(200, { 'content-type': 'text/plain' }).end(req.headers.cookie ?? '');
    },
    '/sw.js': (_req, res) => res.writeHead(200, { 'content-type': 'text/javascript' }).end("self.addEventListener('fetch', () => {});"),
    '/plant': (_req, res) => res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'doc=1; Path=/' }).end(`<body>${plantScript(fixtureUrl)}</body>`),
    '/check': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<body>${checkScript(fixtureUrl)}</body>`),
  });
  fixtureUrl = server.url;
  return { server, cachedHits: () => cachedHits };
}

async function renderText(server: TestServer, body: Record<string, unknown>): Promise<string> {
  const response = await server.render({ ...body, options: { wait_for: '#done', wait_until: 'load', timeout_ms: 15_000 } });
  assert.equal(response.status, 200, await response.clone().text());
  return (await inspectPdf(await response.arrayBuffer())).text;
}

test('html renders on the same worker see nothing of the previous render', async (t) => {
  const fixture = await startIsolationFixture();
  t.after(() => fixture.server.close());
  const server = await startTestServer(t, { renderConcurrency: 1, allowHosts: [`127.0.0.1:${fixture.server.port}`] });
  for (let round = 0; round < 3; round++) {
    const planted = await renderText(server, { html: `<body>${plantScript(fixture.server.url)}</body>` });
    for (const what of ['cookie', 'localstorage', 'sessionstorage', 'global', 'timer', 'indexeddb', 'cachedfetch']) {
      assert.match(planted, new RegExp(`\\b${what}\\b`), `render 1 could not plant ${what}: ${planted}`);
    }
    const hitsBefore = fixture.cachedHits();
    const seen = await renderText(server, { html: `<body>${checkScript(fixture.server.url)}</body>` });
    assert.match(seen, /SEEN nothing/, `round ${round}: ${seen}`);
    assert.equal(fixture.cachedHits(), hitsBefore + 1, 'the second render must fetch the script again, not read it from cache');
  }
});

test('url renders of the same origin see nothing of the previous render', async (t) => {
  const fixture = await startIsolationFixture();
  t.after(() => fixture.server.close());
  const server = await startTestServer(t, { renderConcurrency: 1, allowHosts: [`127.0.0.1:${fixture.server.port}`] });
  const planted = await renderText(server, { url: `${fixture.server.url}/plant` });
  // 127.0.0.1 is a secure context: service workers and CacheStorage are planted too.
  for (const what of ['cookie', 'localstorage', 'sessionstorage', 'indexeddb', 'cachestorage', 'serviceworker', 'thirdpartycookie']) {
    assert.match(planted, new RegExp(`\\b${what}\\b`), `render 1 could not plant ${what}: ${planted}`);
  }
  const seen = await renderText(server, { url: `${fixture.server.url}/check` });
  assert.match(seen, /SEEN nothing/, seen);
});

test('html and url renders alternating on one worker stay isolated', async (t) => {
  const fixture = await startIsolationFixture();
  t.after(() => fixture.server.close());
  const server = await startTestServer(t, { renderConcurrency: 1, allowHosts: [`127.0.0.1:${fixture.server.port}`] });
  await renderText(server, { url: `${fixture.server.url}/plant` });
  assert.match(await renderText(server, { html: `<body>${checkScript(fixture.server.url)}</body>` }), /SEEN nothing/);
  await renderText(server, { html: `<body>${plantScript(fixture.server.url)}</body>` });
  assert.match(await renderText(server, { url: `${fixture.server.url}/check` }), /SEEN nothing/);
});
