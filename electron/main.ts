// Electron main process: the boot list (boot.ts) filled in with Electron. The server runs
// in-process on 127.0.0.1 and renders on Electron's own Chromium (electron-page-source.ts); the
// admin window gets its token through the preload. Logic lives in the modules it calls.

import { BrowserWindow, Menu, Tray, app, clipboard, dialog, ipcMain, session, shell } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../server/src/logger.ts';
import { bootDesktop } from './boot.ts';
import { USER_CONFIG_FILE, desktopConfig, readSettingsFile } from './desktop-config.ts';
import { ElectronPageSource } from './electron-page-source.ts';
import { appSwitches } from './engine-parity.ts';
import { handOverAdminToken } from './ipc.ts';
import { startServerHost } from './server-host.ts';
import { applicationMenuTemplate, showTray, type ShellActions, type TrayLike } from './tray.ts';
import { adminWindowOptions, focusWindow, openAdminWindow, type AdminWindow } from './window.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

// Packaged: extraResources beside app.asar; in development: the repository's resources/.
function resource(name: string): string {
  return app.isPackaged ? path.join(process.resourcesPath, name) : path.join(app.getAppPath(), 'resources', name);
}

// Tests (tests/e2e/electron.spec.ts) point the app at a throw-away user-data folder.
if (process.env.QUIRE_USER_DATA_DIR) app.setPath('userData', process.env.QUIRE_USER_DATA_DIR);
const userDataDir = app.getPath('userData');
// A bad settings file is reported in a dialog by the boot list (startServer), not as a crash.
const settings = (() => {
  try {
    const defaults = readSettingsFile(resource('default-config.json'));
    const user = readSettingsFile(path.join(userDataDir, USER_CONFIG_FILE));
    return { config: desktopConfig({ defaults, user, env: process.env, userDataDir }) };
  } catch (error) {
    return { error };
  }
})();
const log = createLogger(settings.config?.logLevel ?? 'info');
// Switches reach Chromium only before the app is ready.
for (const [name, value] of appSwitches(settings.config?.networkGuard ?? true)) app.commandLine.appendSwitch(name, value);

let adminWindow: AdminWindow | undefined;
let serverUrl: string | undefined;
// Held for the life of the app: a garbage-collected Tray disappears from the panel.
let tray: TrayLike | undefined;

function shellActions(server: { url: string; dataDir: string }): ShellActions {
  return {
    apiAddress: server.url,
    copyText: (text) => clipboard.writeText(text),
    openAdminWindow: () => showAdminWindow(server.url),
    openDataFolder: () => void shell.openPath(server.dataDir),
    quit: () => app.quit(),
  };
}

function showAdminWindow(url: string): void {
  if (adminWindow && !adminWindow.isDestroyed()) return focusWindow(adminWindow);
  const window = openAdminWindow(
    { createWindow: (options) => new BrowserWindow(options), openExternal: (target) => shell.openExternal(target) },
    url,
    adminWindowOptions(path.join(here, 'preload.cjs'), resource('icon.png')),
  );
  window.on('closed', () => (adminWindow = undefined));
  adminWindow = window;
}

// Quire lives in the tray: closing the window does not stop the server.
app.on('window-all-closed', () => undefined);
app.on('activate', () => serverUrl && showAdminWindow(serverUrl));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

void bootDesktop({
  requestSingleInstanceLock: () => app.requestSingleInstanceLock(),
  onSecondInstance: (listener) => app.on('second-instance', listener),
  onQuitRequested: (listener) => app.on('before-quit', listener),
  whenReady: () => app.whenReady(),
  startServer: () => {
    const { config } = settings;
    if (!config) throw settings.error;
    if (config.fontsDir) log.warn({ fonts_dir: config.fontsDir }, 'FONTS_DIR is not applied in the desktop app: install the fonts in the system instead');
    const version = `Electron/${process.versions.electron} Chrome/${process.versions.chrome}`;
    return startServerHost(config, {
      log,
      uiDir: path.join(app.getAppPath(), 'dist', 'ui'),
      pageSource: async ({ proxyServer }) =>
        new ElectronPageSource(
          { createWindow: (options) => new BrowserWindow(options), sessionFor: (partition) => session.fromPartition(partition, { cache: false }) },
          { proxyServer, version, log, partitions: 2 * config.renderConcurrency },
        ),
    });
  },
  handOverToken: (server) =>
    handOverAdminToken({ ipcMain, adminToken: server.adminToken, serverOrigin: new URL(server.url).origin, adminContents: () => adminWindow?.webContents }),
  showTray: (server) => {
    const actions = shellActions(server);
    Menu.setApplicationMenu(Menu.buildFromTemplate(applicationMenuTemplate(actions, process.platform === 'darwin')));
    tray = showTray({ createTray: (icon) => new Tray(icon), buildMenu: (template) => Menu.buildFromTemplate(template) }, resource('tray.png'), actions);
    log.info({ url: server.url, data_dir: server.dataDir }, 'desktop app ready');
  },
  openAdminWindow: (server) => {
    serverUrl = server.url;
    showAdminWindow(server.url);
  },
  reportStartupFailure: (error) => dialog.showErrorBox('Quire could not start', (error as Error)?.message ?? String(error)),
  exit: (code) => app.exit(code),
});
