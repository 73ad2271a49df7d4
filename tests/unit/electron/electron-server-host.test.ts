// The desktop app's server host (electron/server-host.ts) and config (electron/desktop-config.ts):
// the real server started in-process as the app starts it, rendering on the Electron page source
// over a fake of the Electron API backed by headless Chromium (tests/helpers/fake-electron.ts).
// Port choice, health wait, token hand-over, the network guard on Electron's partitions, and
// shutdown that drains renders.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, type Config } from '../../../server/src/config.ts';
import { createLogger } from '../../../server/src/logger.ts';
import { desktopConfig, hasConfiguredPort, readSettingsFile } from '../../../electron/desktop-config.ts';
import { ElectronPageSource } from '../../../electron/electron-page-source.ts';
import { guardedProxy } from '../../../electron/render-window.ts';
import { PortInUseError, choosePort, startServerHost, waitForHealth, within, type RunningServer } from '../../../electron/server-host.ts';
import { FakeElectron } from '../../helpers/fake-electron.ts';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixture-server.ts';
import { inspectPdf } from '../../helpers/pdf.ts';
import { waitFor } from '../../helpers/wait-for.ts';

const REPO = path.resolve(import.meta.dirname, '..', '..', '..');
let electron: FakeElectron;
const log = createLogger('silent');

before(async () => {
  electron = await FakeElectron.launch();
});
after(async () => {
  if (shared) {
    const { server, dir, allowed } = await shared;
    await server.stop();
    await allowed.close();
    await rm(dir, { recursive: true, force: true });
  }
  await electron.close();
});

/**
 * One desktop server for the tests that need a default one (a server start is most of a test's
 * cost): no configured port, ALLOW_HOSTS opening one fixture server. Started by the first test
 * that asks, stopped by the drain test (the file's end, when that one did not run).
 */
let shared: Promise<{ server: RunningServer; config: Config; dir: string; allowed: FixtureServer }> | undefined;
function sharedServer(): NonNullable<typeof shared> {
  shared ??= (async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-desktop-'));
    const allowed = await startFixtureServer({ '/pixel.png': 'x' });
    const config = configFor(dir, { ALLOW_HOSTS: `127.0.0.1:${allowed.port}` });
    const server = await startServerHost(config, {
      log,
      pageSource: async ({ proxyServer }) => new ElectronPageSource(electron, { proxyServer, version: electron.version, log }),
    });
    return { server, config, dir, allowed };
  })();
  return shared;
}

async function userDataDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-desktop-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function configFor(dir: string, settings: Record<string, string> = {}): Config {
  return desktopConfig({
    defaults: readSettingsFile(path.join(REPO, 'resources', 'default-config.json')),
    // No LibreOffice started with each server: no test here converts, and a cold soffice per start costs seconds of CPU.
    user: { LOG_LEVEL: 'silent', OFFICE_WARM_AT_START: 'false', ...settings },
    env: {},
    userDataDir: dir,
  });
}

async function startDesktopServer(t: { after(fn: () => Promise<void>): void }, config: Config): Promise<RunningServer> {
  const server = await startServerHost(config, {
    log,
    pageSource: async ({ proxyServer }) => new ElectronPageSource(electron, { proxyServer, version: electron.version, log }),
  });
  t.after(async () => void (await server.stop()));
  return server;
}

async function issueKey(server: RunningServer): Promise<string> {
  const response = await fetch(`${server.url}/admin/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'desktop', plan: 'business' }),
  });
  assert.equal(response.status, 201);
  return ((await response.json()) as { key: string }).key;
}

function render(server: RunningServer, key: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}/v1/pdf`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

test("without a configured port the desktop server takes a free one on 127.0.0.1, is healthy on Electron's engine, and hands over the admin token of its data folder", async () => {
  const { server, config, dir } = await sharedServer();
  assert.equal(config.port, 0);
  assert.equal(config.dataDir, path.join(dir, 'data'));
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.notEqual(new URL(server.url).port, '0');
  assert.equal(server.adminToken, (await readFile(path.join(dir, 'data', 'admin-token'), 'utf8')).trim());
  const health = (await (await fetch(`${server.url}/health`)).json()) as { status: string; renderer: { browser: string } };
  assert.equal(health.status, 'ok');
  assert.equal(health.renderer.browser, electron.version);
});

test('renders run on the Electron page source, whose partitions go through the network guard', async (t) => {
  const blocked = await startFixtureServer({ '/pixel.png': 'x' });
  t.after(() => blocked.close());
  const { server, allowed } = await sharedServer();
  const key = await issueKey(server);
  const response = await render(server, key, {
    html: `<h1>Desktop render</h1><img src="${blocked.url}/pixel.png"><img src="${allowed.url}/pixel.png">`,
    options: { wait_until: 'load' },
  });
  assert.equal(response.status, 200, await response.clone().text());
  assert.match((await inspectPdf(await response.arrayBuffer())).text, /Desktop render/);
  assert.deepEqual(blocked.hits, [], 'a loopback address the config does not open is never reached');
  assert.deepEqual(allowed.hits, ['GET /pixel.png'], 'the sub-resource does fire where ALLOW_HOSTS opens it');
  // The last window made is the shared server's (the tests run one after another).
  const proxy = electron.windows.at(-1)!.session.proxy;
  assert.ok(proxy?.mode === 'fixed_servers' && /^http:\/\/127\.0\.0\.1:\d+$/.test(proxy.proxyRules), JSON.stringify(proxy));
  assert.deepEqual(proxy, guardedProxy(proxy.proxyRules));
});

test('a configured port is used as is, and one already taken is a clear error rather than another port', async (t) => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const taken = (holder.address() as AddressInfo).port;
  t.after(() => new Promise<void>((resolve) => holder.close(() => resolve())));
  await assert.rejects(startDesktopServer(t, configFor(await userDataDir(t), { PORT: String(taken) })), (error: Error) => {
    assert.ok(error instanceof PortInUseError);
    assert.match(error.message, new RegExp(`port ${taken} on 127\\.0\\.0\\.1 is in use`));
    return true;
  });

  const free = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const server = await startDesktopServer(t, configFor(await userDataDir(t), { PORT: String(free) }));
  assert.equal(server.url, `http://127.0.0.1:${free}`);
  assert.equal(choosePort(undefined), 0);
  assert.equal(choosePort(4000), 4000);
});

test('stopping the desktop server finishes the render in flight, then stops answering', async () => {
  // The shared server's last test: it stops it.
  const { server } = await sharedServer();
  const key = await issueKey(server);
  const inFlight = render(server, key, { html: '<p>still rendering at quit</p>', options: { wait_until: 'load', wait_ms: 1500 } });
  await waitFor(
    async () => ((await (await fetch(`${server.url}/health`)).json()) as { renderer: { busy: number } }).renderer.busy === 1,
    'the render to be in flight',
  );
  let stopped = false;
  const stopping = server.stop().then((outcome) => {
    stopped = true;
    return outcome;
  });
  // A negative check (stop must not have ended meanwhile): a short wait, well inside the render's 1.5 s.
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(stopped, false, 'stop waits for the render');
  const response = await inFlight;
  assert.equal(response.status, 200);
  assert.match((await inspectPdf(await response.arrayBuffer())).text, /still rendering at quit/);
  assert.equal(await stopping, 'stopped');
  assert.equal(await server.stop(), 'stopped', 'stopping twice is one stop');
  await assert.rejects(fetch(`${server.url}/health`));
});

test('shutdown gives up after its cap, and the health wait names what it last saw', async () => {
  assert.equal(await within(new Promise<void>(() => undefined), 30), 'timed-out');
  assert.equal(await within(Promise.resolve(), 1000), 'stopped');
  let calls = 0;
  const flaky = (async () => (++calls < 3 ? new Response('', { status: 503 }) : new Response('{}', { status: 200 }))) as typeof fetch;
  await waitForHealth('http://127.0.0.1:1', flaky, 2000, 5);
  assert.equal(calls, 3);
  const down = (async () => new Response('', { status: 503 })) as typeof fetch;
  await assert.rejects(waitForHealth('http://127.0.0.1:1', down, 50, 5), /did not become healthy within 50 ms \(HTTP 503\)/);
});

test("desktop settings: default-config.json, then the user's config.json, then QUIRE_ environment variables only; always 127.0.0.1; paths under the user-data folder", async (t) => {
  const dir = await userDataDir(t);
  const defaults = readSettingsFile(path.join(REPO, 'resources', 'default-config.json'));
  assert.equal(defaults.RENDER_CONCURRENCY, '2');
  const config = desktopConfig({
    defaults,
    user: { RENDER_CONCURRENCY: '3', HOST: '0.0.0.0', DATA_DIR: 'quire-data', PORT: '4555', PLANS_FILE: 'plans.json', FONTS_DIR: 'fonts', WATCH_DIR: 'hot' },
    // A shell's generic variables are some other program's: only the QUIRE_ ones count.
    env: {
      QUIRE_RENDER_CONCURRENCY: '4',
      RENDER_CONCURRENCY: '7',
      PORT: '1',
      DATA_DIR: '/elsewhere',
      ADMIN_TOKEN: 'from-the-shell-0123456789',
      NETWORK_GUARD: 'off',
      UNRELATED: 'x',
    },
    userDataDir: dir,
  });
  assert.equal(config.renderConcurrency, 4);
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.port, 4555);
  assert.equal(config.dataDir, path.join(dir, 'quire-data'));
  assert.equal(config.plansFile, path.join(dir, 'plans.json'));
  assert.equal(config.shutdownTimeoutMs, 10_000);
  assert.equal(config.fontsDir, path.join(dir, 'fonts'));
  assert.equal(config.watchDir, path.join(dir, 'hot'));
  assert.equal(config.adminToken, '');
  assert.equal(config.networkGuard, true);
  const remembered = { defaults, user: {}, env: {}, userDataDir: dir, rememberedPort: 45_123 };
  assert.equal(desktopConfig(remembered).port, 45_123, 'no PORT configured: the port of the last launch');
  assert.equal(hasConfiguredPort(remembered), false);
  assert.equal(desktopConfig({ ...remembered, env: { QUIRE_PORT: '4600' } }).port, 4600);
  assert.equal(hasConfiguredPort({ ...remembered, env: { QUIRE_PORT: '4600' } }), true);
  assert.throws(
    () => desktopConfig({ ...remembered, env: { QUIRE_PORT: 'x' } }),
    /^Error: QUIRE_PORT must be a whole number|QUIRE_PORT must be a whole number/,
  );

  assert.deepEqual(readSettingsFile(path.join(dir, 'missing.json')), {});
  await writeFile(path.join(dir, 'bad.json'), '{ "PORT": ');
  assert.throws(
    () => readSettingsFile(path.join(dir, 'bad.json')),
    (error: Error) => error instanceof ConfigError && error.message.includes('bad.json is not valid JSON'),
  );
  await writeFile(path.join(dir, 'unknown.json'), '{ "PROT": 4000 }');
  assert.throws(() => readSettingsFile(path.join(dir, 'unknown.json')), /unknown setting PROT/);
  assert.throws(
    () => desktopConfig({ defaults: {}, user: { RENDER_CONCURRENCY: 'many' }, env: {}, userDataDir: dir }),
    /RENDER_CONCURRENCY must be a whole number/,
  );
});
