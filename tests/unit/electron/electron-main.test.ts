// The built desktop main process (dist/electron/main.mjs, as packaged) run under plain Node with a
// stand-in 'electron' module (tests/fixtures/electron-stub): its wiring of config, switches,
// server, Electron page source, token hand-over, tray and admin window, and a quit that drains and
// exits 0. What only a real Electron can show is tests/e2e/electron.spec.ts's part.

import { after, before, type TestContext, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { electronBuild } from '../../helpers/electron-build.ts';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inspectPdf } from '../../helpers/pdf.ts';
import { waitFor } from '../../helpers/wait-for.ts';
import { appSwitches } from '../../../electron/engine-parity.ts';
import { windowLanguage } from '../../../electron/window-language.ts';

const REPO = path.resolve(import.meta.dirname, '..', '..', '..');

type Event = { event: string } & Record<string, unknown>;

/** The fields of the reports these tests read, by event name (the stand-in sends them in tests/fixtures/electron-stub). */
interface Reports {
  'admin-window': { url: string; webPreferences: Record<string, unknown> };
  'tray-menu': { labels: string[] };
  tray: { icon: string };
  token: { token?: string; error?: string };
  exit: { code: number };
  'startup-error': { title: string; content: string };
}

interface MainProcess {
  events: Event[];
  next<Name extends keyof Reports>(name: Name): Promise<Reports[Name]>;
  send(message: object): void;
  exited: Promise<number | null>;
  stderr(): string;
}

/** Runs the built main process with the stand-in electron module and a throw-away user-data folder. */
function startMain(t: { after(fn: () => void): void }, userData: string, env: Record<string, string> = {}): MainProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './tests/fixtures/electron-stub/register.mjs', path.join(bundle, 'main.mjs')], {
    cwd: REPO,
    env: { ...process.env, QUIRE_USER_DATA_DIR: userData, QUIRE_LOG_LEVEL: process.env.MAIN_TEST_LOG ?? 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  if (process.env.MAIN_TEST_LOG) child.stdout!.on('data', (chunk) => process.stderr.write(chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.after(() => void (child.exitCode === null && child.kill('SIGKILL')));
  const events: Event[] = [];
  const waiters: { when: (event: Event) => boolean; resolve: (event: Event) => void }[] = [];
  child.on('message', (message: Event) => {
    events.push(message);
    for (const waiter of waiters.filter((candidate) => candidate.when(message))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  });
  const next = (name: string) =>
    Promise.race([
      new Promise<Event>((resolve) => {
        const seen = events.find((event) => event.event === name);
        if (seen) resolve(seen);
        else waiters.push({ when: (event) => event.event === name, resolve });
      }),
      exited.then((code) => Promise.reject(new Error(`main exited (${code}) before "${name}": ${stderr}`))),
      // Only a guard against a hang: a launch at load 35 on 2 cores took over 60 s.
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no "${name}" within 180 s: ${stderr}`)), 180_000).unref()),
    ]);

  return { events, next: next as MainProcess['next'], send: (message) => child.send(message), exited, stderr: () => stderr };
}

async function userDataFolder(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-main-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A launch with PORT=1 in the shell, quit at once: its folder and the port it took. */
async function launchAndQuit(t: TestContext): Promise<{ userData: string; port: number }> {
  const userData = await userDataFolder(t);
  const first = startMain(t, userData, { PORT: '1' });
  const port = Number(new URL((await first.next('admin-window')).url).port);
  first.send({ quit: true });
  assert.equal(await first.exited, 0);
  return { userData, port };
}

/** This process's build of the desktop app (tests/helpers/electron-build.ts). */
let bundle = '';
before(async () => {
  bundle = await electronBuild();
});

/**
 * The first test's launch, quit cleanly: the port test's first launch too (each launch is a node,
 * a Chromium and a server, the file's main cost). Its folder is removed when the file ends.
 */
let firstLaunch: { userData: string; port: number } | undefined;
after(() => firstLaunch && rm(firstLaunch.userData, { recursive: true, force: true }));

test('the built main process starts the server on 127.0.0.1, renders on the Electron page source, hands the token to the admin window, and quits after draining', async (t) => {
  // Kept for the port test when this test passes (removed after the file), else removed with this test.
  const userData = await mkdtemp(path.join(os.tmpdir(), 'quire-main-'));
  t.after(() => (firstLaunch ? undefined : rm(userData, { recursive: true, force: true })));
  // PORT from the shell is ignored (the port test reads which port this launch remembered).
  const main = startMain(t, userData, { PORT: '1' });
  const { events, next, exited } = main;
  const opened = await next('admin-window');
  const origin = new URL(opened.url).origin;
  assert.match(opened.url, /^http:\/\/127\.0\.0\.1:\d+\/admin$/);
  assert.equal(opened.webPreferences.sandbox, true);
  assert.equal(opened.webPreferences.contextIsolation, true);
  assert.equal(opened.webPreferences.nodeIntegration, false);
  assert.equal(opened.webPreferences.preload, path.join(bundle, 'preload.cjs'));
  assert.deepEqual(
    events.filter((event) => event.event === 'switch').map((event) => [event.name, event.value]),
    // Under a POSIX locale (CI's C.UTF-8) the window also gets --lang (electron/window-language.ts).
    [...appSwitches(true).map(([name, value]) => [name, value]), ...(windowLanguage(process.env) ? [['lang', windowLanguage(process.env)]] : [])],
    "the server's engine flags, the guard's switches and the window's language, applied before the app was ready",
  );
  assert.deepEqual((await next('tray-menu')).labels, [
    `API: ${origin}`,
    'Copy API URL',
    'Open Quire',
    'Open data folder',
    'Open logs folder',
    'About Quire',
    'Quit Quire',
  ]);
  const discovery = JSON.parse(await readFile(path.join(userData, 'data', 'server.json'), 'utf8')) as { base_url: string; port: number };
  assert.equal(discovery.base_url, origin);
  assert.deepEqual(JSON.parse(await readFile(path.join(userData, 'last-port.json'), 'utf8')), { port: discovery.port });
  assert.equal((await next('tray')).icon, path.join(REPO, 'resources', 'tray.png'));

  // A bug in a timer or a forgotten promise is logged; the app runs on (Electron would show a modal box).
  main.send({ fail: 'timer' });
  main.send({ fail: 'promise' });
  main.send({ ask: 'token' });
  const { token } = await next('token');
  assert.equal(token, (await readFile(path.join(userData, 'data', 'admin-token'), 'utf8')).trim());

  const health = (await (await fetch(`${origin}/health`)).json()) as { status: string; renderer: { browser: string } };
  assert.equal(health.status, 'ok');
  assert.match(health.renderer.browser, /^Electron\//);
  const issued = await fetch(`${origin}/admin/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'main', plan: 'starter' }),
  });
  const { key } = (await issued.json()) as { key: string };
  const inFlight = fetch(`${origin}/v1/pdf`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ html: '<h1>From the desktop main process</h1>', options: { wait_until: 'load', wait_ms: 1000 } }),
  });
  // Quit once the render holds its slot: a request still on its way in at quit may get a 503.
  await waitFor(
    async () => ((await (await fetch(`${origin}/health`)).json()) as { renderer: { busy: number } }).renderer.busy > 0,
    'the render to hold its slot',
  );
  main.send({ quit: true });
  const response = await inFlight;
  assert.equal(response.status, 200, 'the render in flight at quit finishes');
  assert.match((await inspectPdf(await response.arrayBuffer())).text, /From the desktop main process/);
  assert.equal((await next('exit')).code, 0);
  assert.equal(await exited, 0);
  assert.ok(!events.some((event) => event.event === 'startup-error'), main.stderr());
  const logLines = (await readFile(path.join(userData, 'logs', 'quire.log'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { msg: string });
  assert.ok(
    logLines.some((line) => line.msg === 'desktop app ready'),
    'the log is in the logs folder, as JSON lines',
  );
  const errors = logLines
    .filter((line) => /uncaught exception|unhandled promise rejection/.test(line.msg))
    .map((line) => (line as { err?: { message?: string } }).err?.message);
  assert.deepEqual(errors.sort(), ['rejected in the main process', 'thrown in a main-process timer']);
  assert.ok(!existsSync(path.join(userData, 'data', 'server.json')), 'the discovery file goes with the server');
  firstLaunch = { userData, port: Number(new URL(origin).port) };
});

test('the port is remembered across launches, a free one is taken only when it is in use, and PORT from the shell is ignored', async (t) => {
  // The first launch is the first test's (run alone, this test launches its own).
  const { userData, port } = firstLaunch ?? (await launchAndQuit(t));
  assert.notEqual(port, 1, 'PORT from the shell is ignored');

  const again = startMain(t, userData);
  assert.equal(Number(new URL((await again.next('admin-window')).url).port), port, 'the same port as last time');
  again.send({ quit: true });
  assert.equal(await again.exited, 0);

  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => holder.close(() => resolve())));
  const taken = startMain(t, userData);
  const moved = Number(new URL((await taken.next('admin-window')).url).port);
  assert.notEqual(moved, port, 'its port was taken: another one');
  assert.deepEqual(JSON.parse(await readFile(path.join(userData, 'last-port.json'), 'utf8')), { port: moved });
  taken.send({ quit: true });
  assert.equal(await taken.exited, 0);
});

test('a broken settings file is reported in a dialog and the app exits with 1, before any server or window', async (t) => {
  const userData = await userDataFolder(t);
  await writeFile(path.join(userData, 'config.json'), '{ "PORT": "many" }');
  const main = startMain(t, userData);
  const reported = await main.next('startup-error');
  assert.equal(reported.title, 'Quire could not start');
  assert.match(reported.content, /PORT must be a whole number/);
  assert.equal(await main.exited, 1);
  assert.ok(!main.events.some((event) => event.event === 'admin-window' || event.event === 'tray'));
});

test('the built preload is one CommonJS file that requires nothing but electron (a sandboxed preload can load nothing else)', async () => {
  const preload = await readFile(path.join(bundle, 'preload.cjs'), 'utf8');
  assert.deepEqual([...new Set([...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((match) => match[1]))], ['electron']);
  assert.doesNotMatch(preload, /^\s*import\s/m);
  assert.match(preload, /exposeInMainWorld\(DESKTOP_API_NAME|exposeInMainWorld\("quire"/);
});
