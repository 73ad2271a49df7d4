// The admin window's rules (electron/window.ts), the token hand-over over IPC (electron/ipc.ts)
// and the tray menu (electron/tray.ts), with fakes of the Electron objects they are given.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHANNELS } from '../../../electron/channels.ts';
import { handOverAdminToken, isTrustedSender, type IpcCaller } from '../../../electron/ipc.ts';
import { aboutMessage, applicationMenuTemplate, showTray, trayMenuTemplate, type ShellActions } from '../../../electron/tray.ts';
import {
  CRASH_RELOAD_WINDOW_MS,
  adminWindowOptions,
  decideNavigation,
  isAllowedAdminPermission,
  isAllowedAdminRequest,
  openAdminWindow,
  reloadAfterCrash,
  type AdminContents,
  type AdminWindow,
  type AdminWindowOptions,
} from '../../../electron/window.ts';

const ORIGIN = 'http://127.0.0.1:4100';

test('the admin window keeps context isolation and sandbox on, Node off, and loads our preload', () => {
  const options = adminWindowOptions('/app/dist/electron/preload.cjs', '/app/resources/icon.png');
  assert.equal(options.webPreferences.contextIsolation, true);
  assert.equal(options.webPreferences.sandbox, true);
  assert.equal(options.webPreferences.nodeIntegration, false);
  assert.equal(options.webPreferences.nodeIntegrationInSubFrames, false);
  assert.equal(options.webPreferences.webviewTag, false);
  assert.equal(options.webPreferences.webSecurity, true);
  assert.equal(options.webPreferences.preload, '/app/dist/electron/preload.cjs');
});

test("navigation: the server's origin stays in the window, other http(s) goes to the system browser, anything else is refused", () => {
  assert.equal(decideNavigation(`${ORIGIN}/admin/keys`, ORIGIN), 'allow');
  assert.equal(decideNavigation('https://example.com/docs', ORIGIN), 'open-external');
  assert.equal(decideNavigation('http://example.com/', ORIGIN), 'open-external');
  assert.equal(decideNavigation('http://127.0.0.1:4101/admin', ORIGIN), 'open-external', 'another port is another origin');
  for (const target of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'mailto:a@b.c', 'chrome://settings', 'not a url']) {
    assert.equal(decideNavigation(target, ORIGIN), 'deny', target);
  }
});

test("the admin window loads nothing but the server's own content, and may only write the clipboard", () => {
  assert.equal(isAllowedAdminRequest(`${ORIGIN}/ui/assets/app.js`, ORIGIN), true);
  assert.equal(isAllowedAdminRequest('data:image/png;base64,AAAA', ORIGIN), true);
  assert.equal(isAllowedAdminRequest('blob:http://127.0.0.1:4100/1234', ORIGIN), true);
  assert.equal(isAllowedAdminRequest('https://cdn.example.com/lib.js', ORIGIN), false);
  assert.equal(isAllowedAdminRequest('http://127.0.0.1:9999/', ORIGIN), false);
  assert.equal(isAllowedAdminRequest('file:///etc/passwd', ORIGIN), false);
  assert.equal(isAllowedAdminPermission('clipboard-sanitized-write', `${ORIGIN}/admin`, ORIGIN), true);
  assert.equal(isAllowedAdminPermission('clipboard-sanitized-write', 'https://example.com/', ORIGIN), false);
  for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read']) {
    assert.equal(isAllowedAdminPermission(permission, `${ORIGIN}/admin`, ORIGIN), false, permission);
  }
});

interface FakeAdminWindow extends AdminWindow {
  listeners: Map<string, ((...args: unknown[]) => void)[]>;
  openHandler?: (details: { url: string }) => { action: 'deny' };
  requestFilter?: (details: { url: string }, callback: (response: { cancel: boolean }) => void) => void;
  loaded: string[];
  shown: number;
}

function fakeAdminWindow(): FakeAdminWindow {
  const listeners = new Map<string, ((...args: unknown[]) => void)[]>();
  const add = (event: string, listener: (...args: unknown[]) => void) => listeners.set(event, [...(listeners.get(event) ?? []), listener]);
  const window: FakeAdminWindow = {
    listeners,
    loaded: [],
    shown: 0,
    webContents: {
      on: (event: string, listener: (...args: unknown[]) => void) => add(event, listener),
      setWindowOpenHandler: (handler) => (window.openHandler = handler),
      getURL: () => `${ORIGIN}/admin`,
      reload: () => void window.loaded.push('reload'),
      session: {
        webRequest: { onBeforeRequest: (listener) => (window.requestFilter = listener) },
        setPermissionRequestHandler: () => undefined,
        setPermissionCheckHandler: () => undefined,
      },
    } as AdminContents,
    loadURL: async (url) => void window.loaded.push(url),
    once: (event: string, listener: () => void) => add(event, listener),
    on: (event: string, listener: () => void) => add(event, listener),
    show: () => void window.shown++,
    focus: () => undefined,
    restore: () => undefined,
    isMinimized: () => false,
    isDestroyed: () => false,
  };
  return window;
}

function navigate(window: FakeAdminWindow, event: 'will-navigate' | 'will-redirect', url: string): boolean {
  let prevented = false;
  for (const listener of window.listeners.get(event) ?? []) listener({ url, preventDefault: () => (prevented = true) }, url);
  return prevented;
}

test('the opened admin window shows /admin of the server and applies its rules to links, popups and requests', async () => {
  const window = fakeAdminWindow();
  const external: string[] = [];
  let created: AdminWindowOptions | undefined;
  openAdminWindow(
    {
      createWindow: (options) => {
        created = options;
        return window;
      },
      openExternal: async (url) => void external.push(url),
    },
    `${ORIGIN}/`,
    adminWindowOptions('/preload.cjs'),
  );
  assert.equal(created?.show, false);
  assert.deepEqual(window.loaded, [`${ORIGIN}/admin`]);
  for (const listener of window.listeners.get('ready-to-show') ?? []) listener();
  assert.equal(window.shown, 1);

  assert.equal(navigate(window, 'will-navigate', `${ORIGIN}/admin/templates`), false);
  assert.equal(navigate(window, 'will-navigate', 'https://example.com/help'), true);
  assert.equal(navigate(window, 'will-redirect', 'file:///etc/passwd'), true);
  assert.deepEqual(window.openHandler?.({ url: 'https://github.com/quire' }), { action: 'deny' });
  assert.deepEqual(window.openHandler?.({ url: 'file:///etc/passwd' }), { action: 'deny' });
  assert.deepEqual(window.openHandler?.({ url: `${ORIGIN}/admin/keys` }), { action: 'deny' }, 'no second privileged window, even of our origin');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(external, ['https://example.com/help', 'https://github.com/quire', `${ORIGIN}/admin/keys`]);

  let prevented = false;
  for (const listener of window.listeners.get('will-attach-webview') ?? []) listener({ preventDefault: () => (prevented = true) });
  assert.equal(prevented, true, 'no <webview> in the admin window');
  const answers: boolean[] = [];
  window.requestFilter?.({ url: 'https://cdn.example.com/x.js' }, ({ cancel }) => answers.push(cancel));
  window.requestFilter?.({ url: `${ORIGIN}/ui/assets/x.js` }, ({ cancel }) => answers.push(cancel));
  assert.deepEqual(answers, [true, false]);
});

function fakeIpcMain() {
  const handlers = new Map<string, (event: IpcCaller, ...args: unknown[]) => unknown>();
  return {
    handlers,
    handle: (channel: string, listener: (event: IpcCaller) => unknown) => void handlers.set(channel, listener),
    removeHandler: (channel: string) => void handlers.delete(channel),
  };
}

test("the admin token is handed over only to the admin window's top frame on the server's origin", () => {
  const ipcMain = fakeIpcMain();
  const adminContents = { id: 1 };
  handOverAdminToken({ ipcMain, adminToken: 'adm_secret', serverOrigin: ORIGIN, adminContents: () => adminContents });
  assert.deepEqual([...ipcMain.handlers.keys()], [CHANNELS.getAdminToken], 'one named channel, no generic pass-through');
  const ask = (event: IpcCaller) => ipcMain.handlers.get(CHANNELS.getAdminToken)!(event);
  assert.equal(ask({ sender: adminContents, senderFrame: { url: `${ORIGIN}/admin`, parent: null } }), 'adm_secret');
  assert.throws(() => ask({ sender: { id: 2 }, senderFrame: { url: `${ORIGIN}/admin`, parent: null } }), /refused/, 'another webContents');
  assert.throws(() => ask({ sender: adminContents, senderFrame: { url: 'https://example.com/', parent: null } }), /refused/, 'another origin in our window');
  assert.throws(() => ask({ sender: adminContents, senderFrame: { url: `${ORIGIN}/admin`, parent: {} } }), /refused/, 'a subframe');
  assert.throws(() => ask({ sender: adminContents, senderFrame: null }), /refused/, 'a frame that is gone');
  assert.equal(isTrustedSender({ sender: undefined, senderFrame: { url: `${ORIGIN}/`, parent: null } }, undefined, ORIGIN), false, 'no admin window open');
});

test('the tray menu shows the API URL and copies it, opens the window, the data and logs folders, About, and quits', () => {
  const done: string[] = [];
  const actions: ShellActions = {
    apiAddress: ORIGIN,
    copyText: (text) => void done.push(`copy ${text}`),
    openAdminWindow: () => void done.push('window'),
    openDataFolder: () => void done.push('data folder'),
    openLogsFolder: () => void done.push('logs folder'),
    showAbout: () => void done.push('about'),
    quit: () => void done.push('quit'),
  };
  const items = trayMenuTemplate(actions);
  assert.equal(items[0]!.label, `API: ${ORIGIN}`);
  assert.equal(items[0]!.enabled, false);
  for (const label of ['Copy API URL', 'Open Quire', 'Open data folder', 'Open logs folder', 'About Quire', 'Quit Quire'])
    items.find((item) => item.label === label)!.click!();
  assert.deepEqual(done, [`copy ${ORIGIN}`, 'window', 'data folder', 'logs folder', 'about', 'quit']);
  assert.ok(!items.some((item) => item.label === 'Open hot folder'), 'no hot folder item without WATCH_DIR');
  const withHotFolder = trayMenuTemplate({ ...actions, openHotFolder: () => void done.push('hot folder') });
  withHotFolder.find((item) => item.label === 'Open hot folder')!.click!();
  assert.equal(done.at(-1), 'hot folder');
  const about = aboutMessage({ version: '1.2.3', electron: '45.4.1', chrome: '142', node: '22', apiUrl: ORIGIN, dataDir: '/d', logsDir: '/l' });
  assert.equal(about.message, 'Quire 1.2.3');
  assert.match(about.detail, /Electron 45\.4\.1/);
  assert.match(about.detail, /Logs: \/l/);

  const menu = applicationMenuTemplate(actions, true);
  assert.deepEqual(
    menu.map((item) => item.role ?? item.label),
    ['appMenu', 'Quire', 'editMenu', 'windowMenu'],
  );
  assert.deepEqual(
    applicationMenuTemplate(actions, false).map((item) => item.role ?? item.label),
    ['Quire', 'editMenu', 'windowMenu'],
  );

  let clickListener: (() => void) | undefined;
  let tooltip = '';
  showTray(
    {
      createTray: () => ({
        setToolTip: (text) => {
          tooltip = text;
        },
        setContextMenu: () => undefined,
        on: (_event, listener) => {
          clickListener = listener;
        },
      }),
      buildMenu: (template) => template,
    },
    '/resources/tray.png',
    actions,
  );
  assert.match(tooltip, /127\.0\.0\.1:4100/);
  clickListener?.();
  assert.equal(done.at(-1), 'window');
});

test('an admin page whose process dies is reloaded once; one that dies again within a minute stays down', () => {
  const window = fakeAdminWindow();
  let now = 1_000_000;
  const gone: boolean[] = [];
  reloadAfterCrash(window, { now: () => now, onPageGone: (_details, reloaded) => void gone.push(reloaded) });
  const die = (reason: string) => {
    for (const listener of window.listeners.get('render-process-gone') ?? []) listener({}, { reason, exitCode: 1 });
  };
  die('crashed');
  assert.deepEqual(window.loaded, ['reload']);
  now += 5_000;
  die('oom');
  assert.deepEqual(window.loaded, ['reload'], 'no reload loop');
  now += CRASH_RELOAD_WINDOW_MS + 1;
  die('killed');
  assert.deepEqual(window.loaded, ['reload', 'reload']);
  die('clean-exit');
  assert.deepEqual(gone, [true, false, true]);
});
