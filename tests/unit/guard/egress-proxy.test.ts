// The egress proxy on its own, driven by a plain HTTP client: it forwards absolute-form requests,
// CONNECT tunnels and upgrades to allowed addresses only, connects to exactly the address it
// checked (a resolver that changes its answer cannot redirect it), and logs every refusal.
// Targets are loopback servers; names go through a fake resolver.

import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createAddressPolicy } from '../../../server/src/guard/address-policy.ts';
import { GUARD_HEADER, startEgressProxy, type EgressProxy } from '../../../server/src/guard/egress-proxy.ts';
import { fakeResolver, startRecordingServer, type RecordingServer } from '../../helpers/canary.ts';

interface Setup {
  proxy: EgressProxy;
  fixture: RecordingServer;
  canary: RecordingServer;
  /** 127.0.0.2 on the fixture's port. */
  sibling: RecordingServer;
  logs: Record<string, unknown>[];
}

async function setUp(t: TestContext, names: Parameters<typeof fakeResolver>[0] = {}): Promise<Setup> {
  const fixture = await startRecordingServer('127.0.0.1', 0, {
    '/hello': (req, res) =>
      void res
        .writeHead(200, { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'], connection: 'x-drop', 'x-drop': '1' })
        .end(`hello ${req.headers.host} ${req.headers['proxy-connection'] ?? '-'}`),
    '/echo': (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk;
      });
      req.on('end', () => void res.writeHead(200).end(`${req.method} ${body}`));
    },
    '/redirect': (_req, res) => void res.writeHead(302, { location: 'http://127.0.0.1:1/' }).end(),
  });
  const canary = await startRecordingServer('127.0.0.1');
  const sibling = await startRecordingServer('127.0.0.2', fixture.port);
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const proxy = await startEgressProxy({
    policy: createAddressPolicy([`127.0.0.1:${fixture.port}`], []),
    resolve: fakeResolver(names),
    log: pino({ level: 'warn' }, sink),
  });
  t.after(async () => {
    await proxy.close();
    await Promise.all([fixture.close(), canary.close(), sibling.close()]);
  });
  return { proxy, fixture, canary, sibling, logs };
}

function viaProxy(
  proxy: EgressProxy,
  target: string,
  options: { method?: string; body?: string; path?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; raw: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: proxy.port,
        method: options.method ?? 'GET',
        path: options.path ?? target,
        headers: { host: new URL(target).host, 'proxy-connection': 'keep-alive' },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, raw: res.rawHeaders, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Sends CONNECT host:port and returns the proxy's status line, then the open socket. */
function connectVia(proxy: EgressProxy, authority: string): Promise<{ status: number; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxy.port, method: 'CONNECT', path: authority });
    req.on('connect', (res, socket) => resolve({ status: res.statusCode!, socket }));
    req.on('response', (res) => resolve({ status: res.statusCode!, socket: res.socket }));
    req.on('error', reject);
    req.end();
  });
}

test('forwards a plain http request to an allowed address, without hop-by-hop headers', async (t) => {
  const { proxy, fixture } = await setUp(t);
  const answer = await viaProxy(proxy, `${fixture.url}/hello`);
  assert.equal(answer.status, 200);
  assert.equal(answer.body, `hello 127.0.0.1:${fixture.port} -`, 'Host kept, Proxy-Connection dropped');
  assert.deepEqual(answer.headers['set-cookie'], ['a=1', 'b=2'], 'repeated headers survive');
  assert.equal(answer.headers['x-drop'], undefined, 'a header named in Connection is dropped');
  const posted = await viaProxy(proxy, `${fixture.url}/echo`, { method: 'POST', body: 'payload' });
  assert.equal(posted.body, 'POST payload');
});

test('hands redirects back to the browser instead of following them', async (t) => {
  const { proxy, fixture } = await setUp(t);
  const answer = await viaProxy(proxy, `${fixture.url}/redirect`);
  assert.equal(answer.status, 302);
  assert.equal(answer.headers.location, 'http://127.0.0.1:1/');
});

test('refuses blocked destinations with 403 before connecting, and logs host, port and reason', async (t) => {
  const { proxy, fixture, canary, sibling, logs } = await setUp(t, { 'rebind.test': ['127.0.0.1'], 'meta.test': ['169.254.169.254'] });
  const targets = [
    `${canary.url}/x`,
    `http://localhost:${canary.port}/x`,
    `http://2130706433:${canary.port}/x`,
    `http://[::ffff:127.0.0.1]:${canary.port}/x`,
    `http://rebind.test:${canary.port}/x`,
    `http://meta.test:${canary.port}/x`, // refused before any connection: nothing leaves for 169.254.169.254
    `${sibling.url}/x`,
  ];
  for (const target of targets) {
    const answer = await viaProxy(proxy, target);
    assert.equal(answer.status, 403, target);
    assert.equal(answer.headers[GUARD_HEADER], 'blocked');
  }
  assert.equal(canary.connections + sibling.connections, 0);
  assert.equal(fixture.connections, 0);
  const blocked = logs.filter((line) => line.msg === 'egress blocked');
  assert.equal(blocked.length, targets.length);
  assert.deepEqual(blocked[0], { ...blocked[0], level: 40, host: '127.0.0.1', port: canary.port, via: 'http' });
  assert.match(String(blocked[5]!.reason), /169\.254\.169\.254 \(linkLocal\)/);
});

test('CONNECT tunnels to an allowed address and refuses a blocked one', async (t) => {
  const { proxy, fixture, canary } = await setUp(t, { 'rebind.test': ['127.0.0.1'] });
  const open = await connectVia(proxy, `127.0.0.1:${fixture.port}`);
  assert.equal(open.status, 200);
  const reply = await new Promise<string>((resolve) => {
    let text = '';
    open.socket.on('data', (chunk: Buffer) => {
      text += chunk;
      if (text.includes('hello')) resolve(text);
    });
    open.socket.write(`GET /hello HTTP/1.1\r\nHost: tunnel.test\r\nConnection: close\r\n\r\n`);
  });
  assert.match(reply, /^HTTP\/1\.1 200/);
  assert.match(reply, /hello tunnel\.test/);
  open.socket.destroy();
  for (const authority of [
    `127.0.0.1:${canary.port}`,
    `rebind.test:${canary.port}`,
    `[::1]:${canary.port}`,
    `0x7f000001:${canary.port}`,
    `localhost:${canary.port}`,
  ]) {
    const refused = await connectVia(proxy, authority);
    assert.equal(refused.status, 403, authority);
    refused.socket.destroy();
  }
  assert.equal(canary.connections, 0);
});

test('a WebSocket upgrade in absolute form is checked like any request', async (t) => {
  const { proxy, canary } = await setUp(t);
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: proxy.port,
      path: `${canary.url}/ws`,
      headers: { connection: 'Upgrade', upgrade: 'websocket', host: `127.0.0.1:${canary.port}` },
    });
    req.on('response', (res) => resolve(res.statusCode!));
    req.on('upgrade', (res) => resolve(res.statusCode!));
    req.on('error', reject);
    req.end();
  });
  assert.equal(status, 403);
  assert.equal(canary.connections, 0);
});

test('connects to the address it checked: a resolver that changes its answer cannot rebind it', async (t) => {
  let calls = 0;
  // First answer: the allowed fixture address; every later one: the sibling canary on the same port.
  const flip = () => (calls++ === 0 ? ['127.0.0.1'] : ['127.0.0.2']);
  const { proxy, fixture, sibling } = await setUp(t, { 'flip.test': flip });
  const answer = await viaProxy(proxy, `http://flip.test:${fixture.port}/hello`);
  assert.equal(answer.status, 200);
  assert.equal(calls, 1, 'the name was resolved once, by the proxy');
  assert.deepEqual(fixture.paths(), ['/hello']);
  assert.equal(sibling.connections, 0);
  // Now the resolver answers with the refused address: refused, and still nothing reaches it.
  const second = await viaProxy(proxy, `http://flip.test:${fixture.port}/hello`);
  assert.equal(second.status, 403);
  assert.equal(sibling.connections, 0);
});

test('refuses requests that are not proxy requests', async (t) => {
  const { proxy } = await setUp(t);
  const origin = await viaProxy(proxy, 'http://127.0.0.1/', { path: '/x' });
  assert.equal(origin.status, 403);
  const ftp = await viaProxy(proxy, 'http://127.0.0.1/', { path: 'ftp://127.0.0.1/x' });
  assert.equal(ftp.status, 403);
});

test('never tunnels into itself, even when ALLOW_HOSTS opens all of loopback; a closed port or unknown name is a 502', async (t) => {
  const proxy = await startEgressProxy({ policy: createAddressPolicy(['127.0.0.0/8'], []), resolve: fakeResolver({}), log: pino({ level: 'silent' }) });
  t.after(() => proxy.close());
  for (const authority of [`127.0.0.1:${proxy.port}`, `localhost:${proxy.port}`]) {
    const self = await connectVia(proxy, authority);
    assert.equal(self.status, 403, authority);
    self.socket.destroy();
  }
  assert.equal((await viaProxy(proxy, `http://127.0.0.1:${proxy.port}/`)).status, 403);
  const closed = await new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
  const refused = await viaProxy(proxy, `http://127.0.0.1:${closed}/`);
  assert.equal(refused.status, 502);
  assert.equal(refused.headers[GUARD_HEADER], 'failed');
  assert.equal((await viaProxy(proxy, 'http://nowhere.test/')).status, 502);
});

test('CONNECT to port 80 (how Chromium tunnels ws:// WebSockets) is decided on its address, not refused as malformed', async (t) => {
  const { proxy, logs } = await setUp(t, { 'private.test': ['10.0.0.8'] });
  // A private host on port 80 is refused by the policy, with the port read right.
  const blocked = await connectVia(proxy, 'private.test:80');
  assert.equal(blocked.status, 403);
  blocked.socket.destroy();
  const refusal = logs.find((line) => line.msg === 'egress blocked');
  assert.deepEqual([refusal?.host, refusal?.port], ['private.test', 80]);
  // An allowed address on port 80 is admitted (loopback opened by ALLOW_HOSTS: no test leaves the
  // machine); whether anything listens there, the answer is never the guard's 403.
  const open = await startEgressProxy({ policy: createAddressPolicy(['127.0.0.1'], []), log: pino({ level: 'silent' }) });
  t.after(() => open.close());
  const allowed = await connectVia(open, '127.0.0.1:80');
  assert.notEqual(allowed.status, 403, 'port 80 is no longer refused as a malformed authority');
  allowed.socket.destroy();
});
