// http_headers, cookies, basic_auth and user_agent go to the url's own origin only: proven with
// two loopback fixture origins that log the headers of every request they receive. The page on
// origin A pulls a stylesheet from A and an image, a script and a fetch from origin B; a second
// url on A redirects to B.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { errorOf, startTestServer } from '../helpers/start-app.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';

interface Seen {
  path: string;
  authorization?: string;
  cookie?: string;
  userAgent?: string;
  custom?: string;
}

function recorder(log: Seen[]) {
  return (handler: (req: http.IncomingMessage, res: http.ServerResponse) => void) => (req: http.IncomingMessage, res: http.ServerResponse) => {
    log.push({
      path: (req.url ?? '/').split('?')[0]!,
      authorization: req.headers.authorization,
      cookie: req.headers.cookie,
      userAgent: req.headers['user-agent'],
      custom: req.headers['x-tenant'] as string | undefined,
    });
    handler(req, res);
  };
}

const CREDENTIALS = {
  http_headers: { 'X-Tenant': 'acme' },
  cookies: [
    { name: 'session', value: 'abc123' },
    { name: 'scoped', value: 'yes', path: '/private' },
    { name: 'tls', value: 'only', secure: true },
  ],
  basic_auth: { username: 'ada', password: 's3cret' },
  user_agent: 'QuireTest/1.0',
};
const BASIC = `Basic ${Buffer.from('ada:s3cret').toString('base64')}`;

test('url credentials reach the url origin and nothing else', async (t) => {
  const seenA: Seen[] = [];
  const seenB: Seen[] = [];
  const onA = recorder(seenA);
  const onB = recorder(seenB);
  const html = (type: string, body: string) => (_req: http.IncomingMessage, res: http.ServerResponse) =>
    void res.writeHead(200, { 'content-type': type, 'access-control-allow-origin': '*' }).end(body);
  // B is another origin on the same host (another port): cookies in a browser jar would go there too.
  const b: FixtureServer = await startFixtureServer({
    '/pixel.svg': onB(html('image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')),
    '/script.js': onB(html('text/javascript', 'window.fromB = true;')),
    '/api': onB(html('application/json', '{"ok":true}')),
    '/landing': onB(html('text/html', '<p>Landed on B</p>')),
  });
  t.after(() => b.close());
  const a: FixtureServer = await startFixtureServer({
    '/page': onA(
      html(
        'text/html',
        `<link rel="stylesheet" href="/style.css"><p>Page on A</p><img src="${b.url}/pixel.svg"><script src="${b.url}/script.js"></script>` +
          `<script>fetch("${b.url}/api").then(() => { window.fetched = true; }); fetch("/private/data").then(() => { window.fetchedA = true; });</script>`,
      ),
    ),
    '/style.css': onA(html('text/css', 'p { color: black }')),
    '/private/data': onA(html('application/json', '{}')),
    '/hop': onA((_req, res) => void res.writeHead(302, { location: `${b.url}/landing` }).end()),
  });
  t.after(() => a.close());
  const server = await startTestServer(t, { allowHosts: [`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`] });
  const render = (url: string, options: Record<string, unknown> = {}) =>
    server.render({ url, options: { wait_until: 'load', wait_for_function: 'window.fetched && window.fetchedA', timeout_ms: 20_000, ...options } });

  await t.test('the page and its same-origin requests carry every credential', async () => {
    const response = await render(`${a.url}/page`, CREDENTIALS);
    assert.equal(response.status, 200, await response.clone().text());
    for (const path of ['/page', '/style.css', '/private/data']) {
      const seen = seenA.find((entry) => entry.path === path);
      assert.ok(seen, `A received ${path}`);
      assert.equal(seen.authorization, BASIC, path);
      assert.equal(seen.userAgent, 'QuireTest/1.0', path);
      assert.equal(seen.custom, 'acme', path);
    }
    assert.equal(seenA.find((entry) => entry.path === '/page')!.cookie, 'session=abc123', 'the path-scoped and secure cookies stay back');
    assert.equal(seenA.find((entry) => entry.path === '/private/data')!.cookie, 'session=abc123; scoped=yes');
  });

  await t.test('requests to another origin carry none of them', async () => {
    assert.deepEqual(seenB.map((entry) => entry.path).sort(), ['/api', '/pixel.svg', '/script.js']);
    for (const seen of seenB) {
      assert.equal(seen.authorization, undefined, seen.path);
      assert.equal(seen.cookie, undefined, seen.path);
      assert.equal(seen.custom, undefined, seen.path);
      assert.notEqual(seen.userAgent, 'QuireTest/1.0', seen.path);
    }
  });

  await t.test('a redirect to another origin drops them at the hop', async () => {
    seenA.length = 0;
    seenB.length = 0;
    const response = await server.render({ url: `${a.url}/hop`, options: { wait_until: 'load', timeout_ms: 20_000, ...CREDENTIALS } });
    assert.equal(response.status, 200);
    assert.equal(seenA.find((entry) => entry.path === '/hop')?.authorization, BASIC);
    const landing = seenB.find((entry) => entry.path === '/landing');
    assert.ok(landing, 'B received the redirect target');
    assert.equal(landing.authorization, undefined);
    assert.equal(landing.cookie, undefined);
    assert.equal(landing.custom, undefined);
    assert.notEqual(landing.userAgent, 'QuireTest/1.0');
  });

  await t.test('the next render on the same lane sends none of them', async () => {
    seenA.length = 0;
    const response = await render(`${a.url}/page`);
    assert.equal(response.status, 200);
    const page = seenA.find((entry) => entry.path === '/page')!;
    assert.equal(page.authorization, undefined);
    assert.equal(page.cookie, undefined);
    assert.equal(page.custom, undefined);
  });

  await t.test('a batch uses them and keeps no trace of them on disk once it has completed', async () => {
    seenA.length = 0;
    const secret = {
      basic_auth: { username: 'ada', password: 'batch-secret-pw' },
      cookies: [{ name: 'session', value: 'batch-secret-cookie' }],
      http_headers: { 'X-Tenant': 'batch-secret-header' },
    };
    const response = await server.request('POST', '/v1/pdf/batch', { requests: [{ url: `${a.url}/page` }], options: { wait_until: 'load', ...secret } });
    assert.equal(response.status, 200);
    const batch = (await response.json()) as { status: string; results: { status: string }[] };
    assert.equal(batch.status, 'completed');
    assert.equal(batch.results[0]!.status, 'succeeded');
    assert.equal(seenA.find((entry) => entry.path === '/page')?.custom, 'batch-secret-header', 'the item was rendered with them');
    const leftovers = await filesContaining(server.dataDir, [
      'batch-secret-pw',
      'batch-secret-cookie',
      'batch-secret-header',
      Buffer.from('ada:batch-secret-pw').toString('base64'),
    ]);
    assert.deepEqual(leftovers, [], 'no file under DATA_DIR holds a credential');
  });

  await t.test('they are refused on html renders', async () => {
    const error = await errorOf(await server.render({ html: '<p>x</p>', options: { basic_auth: { username: 'a', password: 'b' } } }));
    assert.equal(error.status, 400);
    assert.match(error.detail, /options\.basic_auth is only for url renders/);
  });
});

/** Files under dir whose bytes contain any of the needles. */
async function filesContaining(dir: string, needles: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = await readFile(file);
    if (needles.some((needle) => bytes.includes(needle))) found.push(file);
  }
  return found;
}
