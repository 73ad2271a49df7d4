// The desktop app's Electron page source, on a fake of the Electron API backed by the project's
// headless Chromium (tests/helpers/fake-electron.ts): real PDFs through the same Renderer and
// CdpPage as the headless server, the lane rules of lane-policy.ts, and every render window
// hidden, sandboxed and in a partition of its own.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../../server/src/logger.ts';
import { PageCrashedError, RendererCrashedError } from '../../../server/src/render/errors.ts';
import { DEFAULT_PDF_OPTIONS, type PdfOptions } from '../../../server/src/render/pdf-options.ts';
import { Renderer } from '../../../server/src/render/renderer.ts';
import { ElectronPageSource, RENDER_PARTITION_PREFIX } from '../../../electron/electron-page-source.ts';
import { guardedProxy } from '../../../electron/render-window.ts';
import { FLAG_REASONS } from '../../../server/src/render/launch-flags.ts';
import { FLAG_PARITY, appSwitches, flagName } from '../../../electron/engine-parity.ts';
import { FakeElectron } from '../../helpers/fake-electron.ts';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixture-server.ts';
import { inspectPdf } from '../../helpers/pdf.ts';
import { waitFor } from '../../helpers/wait-for.ts';

let electron: FakeElectron;
let fixture: FixtureServer;

before(async () => {
  electron = await FakeElectron.launch();
  fixture = await startFixtureServer({
    '/page': '<h1>Fetched page</h1><script>document.cookie = "url=1"; localStorage.setItem("url", "1")</script>',
    '/hang': () => undefined,
    '/check':
      '<p id="seen"></p><script>document.getElementById("seen").textContent = "SEEN " + (document.cookie || "nothing") + " " + (localStorage.getItem("url") || "")</script>',
  });
});
after(async () => {
  await fixture.close();
  await electron.close();
});

const log = createLogger('silent');
const options = (overrides: Partial<PdfOptions> = {}): PdfOptions => ({ ...DEFAULT_PDF_OPTIONS, wait_until: 'load', ...overrides });

function rendererOn(source: ElectronPageSource): Renderer {
  return new Renderer(source, { concurrency: 1, queueSize: 4, queueTimeoutMs: 5_000 });
}

async function textOf(pdf: Uint8Array): Promise<string> {
  return (await inspectPdf(pdf)).text;
}

test('the Electron page source renders html to a real PDF with the requested paper and options', async (t) => {
  const source = new ElectronPageSource(electron, { version: electron.version, log });
  t.after(() => source.close());
  const pdf = await rendererOn(source).render({
    source: { kind: 'html', html: '<h1>Invoice 42</h1><p>Rendered on the desktop engine</p>' },
    options: options({ format: 'Letter', landscape: true, margin: '1in', footer_template: '<span class="pageNumber"></span>' }),
  });
  const inspected = await inspectPdf(pdf);
  assert.match(inspected.text, /Invoice 42/);
  assert.match(inspected.text, /Rendered on the desktop engine/);
  assert.deepEqual([inspected.pages[0]!.width, inspected.pages[0]!.height], [792, 612], 'Letter, landscape');
  const printed = electron.windows.at(-1)!.webContents.printed.at(-1)!;
  assert.deepEqual(printed.pageSize, { width: 8.5, height: 11 });
  assert.deepEqual(printed.margins, { top: 1, bottom: 1, left: 1, right: 1 });
  assert.equal(printed.landscape, true);
  assert.equal(printed.displayHeaderFooter, true);
});

test('render windows are hidden, sandboxed, isolated, without Node, in an in-memory partition each, and refuse popups, permissions and downloads', async (t) => {
  const source = new ElectronPageSource(electron, { version: electron.version, log });
  t.after(() => source.close());
  const renderer = rendererOn(source);
  const before = electron.windows.length;
  await renderer.render({ source: { kind: 'html', html: '<p>one</p>' }, options: options() });
  await renderer.render({ source: { kind: 'url', url: `${fixture.url}/page` }, options: options() });
  const windows = electron.windows.slice(before);
  assert.equal(windows.length, 2, 'one lane for html, one window for the url render');
  const partitions = windows.map((window) => window.options.webPreferences.partition);
  assert.notEqual(partitions[0], partitions[1]);
  for (const window of windows) {
    const { webPreferences } = window.options;
    assert.equal(window.options.show, false);
    assert.equal(webPreferences.sandbox, true);
    assert.equal(webPreferences.contextIsolation, true);
    assert.equal(webPreferences.nodeIntegration, false);
    assert.equal(webPreferences.webviewTag, false);
    assert.ok(webPreferences.partition.startsWith(RENDER_PARTITION_PREFIX) && !webPreferences.partition.startsWith('persist:'), webPreferences.partition);
    assert.deepEqual(window.webContents.windowOpenHandler?.({ url: 'https://example.com/' }), { action: 'deny' });
    let granted: boolean | undefined;
    window.session.permissionRequestHandler?.({}, 'geolocation', (answer) => (granted = answer));
    assert.equal(granted, false);
    assert.equal(window.session.permissionCheckHandler?.({}, 'notifications'), false);
    let prevented = false;
    window.session.events.emit('will-download', { preventDefault: () => (prevented = true) });
    assert.equal(prevented, true);
  }
  assert.equal(windows[1]!.isDestroyed(), true, 'a url render window is destroyed after its render');
  assert.equal(windows[1]!.session.cleared, 1, 'and its partition emptied');
  assert.equal(windows[0]!.isDestroyed(), false, 'the html lane is kept for the next render');
});

test('every render partition sends its requests through the egress proxy, loopback included', async (t) => {
  // A proxy that is never reached: html renders are answered from memory, before any network.
  const source = new ElectronPageSource(electron, { version: electron.version, log, proxyServer: 'http://127.0.0.1:9' });
  t.after(() => source.close());
  const before = electron.windows.length;
  await rendererOn(source).render({ source: { kind: 'html', html: '<p>guarded</p>' }, options: options() });
  assert.deepEqual(electron.windows[before]!.session.proxy, guardedProxy('http://127.0.0.1:9'));
  assert.deepEqual(guardedProxy('http://127.0.0.1:9'), { mode: 'fixed_servers', proxyRules: 'http://127.0.0.1:9', proxyBypassRules: '<-loopback>' });
});

test('html renders reuse one window yet see no cookie, storage, global or timer of the previous render; url renders see nothing either', async (t) => {
  const source = new ElectronPageSource(electron, { version: electron.version, log });
  t.after(() => source.close());
  const renderer = rendererOn(source);
  const before = electron.windows.length;
  const plant = `<p id="set"></p><script>document.cookie = 'own=1'; localStorage.setItem('planted', '1'); window.planted = 1;
    setInterval(() => { document.cookie = 'timer=1'; }, 1);
    document.getElementById('set').textContent = 'SET ' + document.cookie + ' ' + localStorage.getItem('planted');</script>`;
  // The check reads 100 ms after load (a timer left running would have set its cookie by then), and
  // the render waits for that read (#seen.done), not a fixed time: at load 35-80 a 150 ms wait printed before it.
  const check = `<p id="seen"></p><script>setTimeout(() => {
    document.getElementById('seen').textContent = 'SEEN ' + [document.cookie, localStorage.length ? 'storage' : '', window.planted ? 'global' : ''].join(' ').trim();
    document.getElementById('seen').className = 'done';
  }, 100);</script>`;
  // Twice: the second plant and check run in the window the first ones used (a third round adds no path).
  for (let round = 0; round < 2; round++) {
    assert.equal(await textOf(await renderer.render({ source: { kind: 'html', html: plant }, options: options() })), 'SET own=1 1');
    assert.equal(await textOf(await renderer.render({ source: { kind: 'html', html: check }, options: options({ wait_for: '#seen.done' }) })), 'SEEN');
  }
  assert.equal(electron.windows.length - before, 1, 'four html renders, one lane');
  assert.match(await textOf(await renderer.render({ source: { kind: 'url', url: `${fixture.url}/page` }, options: options() })), /Fetched page/);
  assert.equal(await textOf(await renderer.render({ source: { kind: 'url', url: `${fixture.url}/check` }, options: options() })), 'SEEN nothing');
});

test('a renderer crash while the page loads ends the try at once (Inspector.targetCrashed, no detach), not at its timeout; crashed on both tries it is PageCrashedError', async (t) => {
  const source = new ElectronPageSource(electron, { version: electron.version, log });
  t.after(() => source.close());
  const renderer = rendererOn(source);
  await renderer.render({ source: { kind: 'html', html: '<p>first</p>' }, options: options() });
  // The image never answers, so 'load' never comes: only the crashes can end this render before its 120 s.
  const hanging = renderer.render({
    source: { kind: 'html', html: `<img src="${fixture.url}/hang"><p>loading</p>` },
    options: options({ timeout_ms: 120_000 }),
  });
  const crashed: ReturnType<typeof electron.liveWindows> = [];
  for (const hit of [1, 2]) {
    await waitFor(() => fixture.hits.filter((request) => request === 'GET /hang').length >= hit, `the page to ask for its image (try ${hit})`, 60_000);
    const lane = electron.liveWindows().at(-1)!;
    assert.ok(!crashed.includes(lane), 'the retry runs in a new window');
    crashed.push(lane);
    lane.webContents.crash();
  }
  await assert.rejects(hanging, PageCrashedError);
  for (const lane of crashed) assert.equal(lane.webContents.debugger.detachEvents, 0, 'Electron sends no detach on a crash: the source must not wait for one');
  assert.equal(source.restarts, 2);
  assert.match(await textOf(await renderer.render({ source: { kind: 'html', html: '<p>after the crash</p>' }, options: options() })), /after the crash/);
});

test("render partitions come from a fixed pool, are emptied before reuse, and never carry one render's cookies or storage into another", async (t) => {
  const source = new ElectronPageSource(electron, { version: electron.version, log, partitions: 2 });
  t.after(() => source.close());
  const renderer = rendererOn(source);
  const firstWindow = electron.windows.length;
  // Three rounds: six url renders on a pool of two, so a partition is emptied and used again at least twice.
  for (let round = 0; round < 3; round++) {
    assert.match(await textOf(await renderer.render({ source: { kind: 'url', url: `${fixture.url}/page` }, options: options() })), /Fetched page/);
    assert.equal(await textOf(await renderer.render({ source: { kind: 'url', url: `${fixture.url}/check` }, options: options() })), 'SEEN nothing');
    assert.match(await textOf(await renderer.render({ source: { kind: 'html', html: '<p>html between</p>' }, options: options() })), /html between/);
  }
  const partitions = new Set(electron.windows.slice(firstWindow).map((window) => window.options.webPreferences.partition));
  assert.equal(electron.windows.length - firstWindow, 7, 'a window per url render, one html lane');
  assert.ok(partitions.size <= 2, `9 renders, at most 2 partitions (saw ${[...partitions].join(', ')})`);
  const used = [...partitions].map((partition) => electron.sessions.get(partition)!);
  for (const session of used) assert.equal(session.clearedWhileOpen, 0, `${session.partition} was cleared only after its windows were gone`);
  assert.ok(
    used.some((session) => session.cleared >= 2),
    'partitions were emptied and used again',
  );
});

test("render windows are muted and keep WebRTC on the proxy; the app switches carry the server's colour, font, scrollbar and feature flags", async (t) => {
  const source = new ElectronPageSource(electron, { version: electron.version, log });
  t.after(() => source.close());
  await rendererOn(source).render({ source: { kind: 'html', html: '<audio autoplay src="data:audio/wav;base64,"></audio><p>quiet</p>' }, options: options() });
  const contents = electron.windows.at(-1)!.webContents;
  assert.equal(contents.audioMuted, true);
  assert.equal(contents.webRTCIPHandlingPolicy, 'disable_non_proxied_udp');
  const switches = new Map(appSwitches(true).map(([name, value]) => [name, value]));
  assert.equal(switches.get('font-render-hinting'), 'none');
  assert.equal(switches.get('force-color-profile'), 'srgb');
  assert.ok(switches.has('hide-scrollbars') && switches.has('disable-quic'));
  assert.match(switches.get('disable-features') ?? '', /(^|,)LocalNetworkAccessChecks(,|$)/);
  assert.equal(switches.get('host-resolver-rules'), 'MAP * ~NOTFOUND , EXCLUDE 127.0.0.1');
  assert.ok(!appSwitches(false).some(([name]) => name === 'host-resolver-rules'));
  assert.ok(!switches.has('mute-audio'), 'muting is per render window: the switch would mute the admin window too');
});

test('every reviewed flag of the headless server has a decision in the desktop app (applied, per window, or not applicable with a reason)', () => {
  const serverFlags = FLAG_REASONS.map(([flag]) => flagName(flag)).sort();
  assert.deepEqual(Object.keys(FLAG_PARITY).sort(), serverFlags);
});

test('a render window whose process dies under a render: the render is retried once in a new window and succeeds', async (t) => {
  const source = new ElectronPageSource(electron, { version: electron.version, log });
  t.after(() => source.close());
  const renderer = rendererOn(source);
  await renderer.render({ source: { kind: 'html', html: '<p>first</p>' }, options: options() });
  const lane = electron.liveWindows().at(-1)!;
  const html = '<p>waits</p><script>setTimeout(() => document.body.insertAdjacentHTML("beforeend", "<p id=late>late</p>"), 1500)</script>';
  const retried = renderer.render({ source: { kind: 'html', html }, options: options({ wait_for: '#late', timeout_ms: 20_000 }) });
  setTimeout(() => lane.webContents.crash(), 300);
  assert.match(await textOf(await retried), /late/);
  assert.equal(source.restarts, 1);
  assert.equal(lane.isDestroyed(), true);
  assert.notEqual(electron.liveWindows().at(-1), lane);
});

test('closing the source destroys its windows and refuses further pages', async () => {
  const source = new ElectronPageSource(electron, { version: electron.version, log });
  await rendererOn(source).render({ source: { kind: 'html', html: '<p>x</p>' }, options: options() });
  const lane = electron.windows.at(-1)!;
  await source.close();
  assert.equal(lane.isDestroyed(), true);
  assert.equal(await source.probe(), false);
  await assert.rejects(source.acquire('html'), RendererCrashedError);
});
