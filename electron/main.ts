// Electron main process: the boot list (boot.ts) filled in with Electron. The server runs
// in-process on 127.0.0.1 and renders on Electron's own Chromium (electron-page-source.ts); the
// admin window gets its token through the preload. Before the app is ready: the user-data folder
// (moved from its old name once), the log file, the settings, the Chromium switches and fonts.
// Logic lives in the modules it calls.

import { BrowserWindow, Menu, Tray, app, clipboard, dialog, ipcMain, session, shell } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../server/src/logger.ts';
import { fontEnvironment } from '../server/src/render/fonts.ts';
import { bootDesktop } from './boot.ts';
import { moveLegacyDataFolder } from './data-folder.ts';
import {
  OWN_ENTRIES,
  USER_CONFIG_FILE,
  desktopConfig,
  hasConfiguredPort,
  readRememberedPort,
  readSettingsFile,
  rememberPort,
  userDataOverride,
  type DesktopConfigSources,
} from './desktop-config.ts';
import { RotatingLogFile } from './log-file.ts';
import { ElectronPageSource } from './electron-page-source.ts';
import { appSwitches } from './engine-parity.ts';
import { handOverAdminToken } from './ipc.ts';
import { startServerHost } from './server-host.ts';
import { windowLanguage } from './window-language.ts';
import { aboutMessage, applicationMenuTemplate, showTray, type ShellActions, type TrayLike } from './tray.ts';
import { adminWindowOptions, focusWindow, openAdminWindow, type AdminWindow } from './window.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

// Packaged: extraResources beside app.asar; in development: the repository's resources/.
function resource(name: string): string {
  return app.isPackaged ? path.join(process.resourcesPath, name) : path.join(app.getAppPath(), 'resources', name);
}

// Tests (tests/e2e/electron.spec.ts, tests/unit/electron/electron-main.test.ts) point a development run at
// a throw-away user-data folder; an installed app ignores the variable.
const testUserData = userDataOverride(app.isPackaged, process.env);
if (testUserData) app.setPath('userData', testUserData);
// Versions before productName "Quire" kept their files in <appData>/quire.
const moved = testUserData ? undefined : moveLegacyDataFolder(path.join(app.getPath('appData'), 'quire'), app.getPath('userData'), OWN_ENTRIES);
const userDataDir = app.getPath('userData');
const logsDir = testUserData ? path.join(testUserData, 'logs') : app.getPath('logs');
const logFile = new RotatingLogFile(logsDir, { echo: app.isPackaged ? undefined : process.stdout });
// A bad settings file is reported in a dialog by the boot list (startServer), not as a crash.
const settings = (() => {
  try {
    const sources: DesktopConfigSources = {
      defaults: readSettingsFile(resource('default-config.json')),
      user: readSettingsFile(path.join(userDataDir, USER_CONFIG_FILE)),
      env: process.env,
      userDataDir,
      rememberedPort: readRememberedPort(userDataDir),
    };
    return { config: desktopConfig(sources), freePortIfTaken: !hasConfiguredPort(sources) };
  } catch (error) {
    return { error, freePortIfTaken: false };
  }
})();
const log = createLogger(settings.config?.logLevel ?? 'info', logFile);
if (moved?.moved.length || moved?.kept.length) log.warn({ ...moved, to: userDataDir }, 'moved the files of the old "quire" folder to the "Quire" folder');
// A bug in a timer or a promise nobody awaits is logged; Electron would otherwise show a modal error box.
process.on('uncaughtException', (error) => log.error({ err: error }, 'uncaught exception in the main process'));
process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled promise rejection in the main process'));
// Switches reach Chromium only before the app is ready.
for (const [name, value] of appSwitches(settings.config?.networkGuard ?? true)) app.commandLine.appendSwitch(name, value);
// A POSIX locale in the environment would reach the window as an invalid language tag (window-language.ts).
const language = windowLanguage(process.env);
if (language) app.commandLine.appendSwitch('lang', language);
// FONTS_DIR: on Linux Electron's Chromium reads fontconfig, which an environment variable set
// before its renderers start can extend; macOS and Windows offer no folder-level equivalent.
if (settings.config?.fontsDir) {
  if (process.platform === 'linux') Object.assign(process.env, await fontEnvironment(settings.config.fontsDir, settings.config.dataDir));
  else log.warn({ fonts_dir: settings.config.fontsDir }, 'FONTS_DIR applies on Linux only: on this system install the fonts in the system');
}

let adminWindow: AdminWindow | undefined;
let serverUrl: string | undefined;
// Held for the life of the app: a garbage-collected Tray disappears from the panel.
const heldForLife: { tray?: TrayLike } = {};

function shellActions(server: { url: string; dataDir: string }): ShellActions {
  return {
    apiAddress: server.url,
    copyText: (text) => clipboard.writeText(text),
    openAdminWindow: () => showAdminWindow(server.url),
    openDataFolder: () => void shell.openPath(server.dataDir),
    openLogsFolder: () => void shell.openPath(logsDir),
    openHotFolder: settings.config?.watchDir ? () => void shell.openPath(settings.config!.watchDir) : undefined,
    showAbout: () => {
      const about = aboutMessage({
        version: app.getVersion(),
        electron: process.versions.electron ?? '?',
        chrome: process.versions.chrome ?? '?',
        node: process.versions.node,
        apiUrl: server.url,
        dataDir: server.dataDir,
        logsDir,
      });
      void dialog.showMessageBox({ type: 'info', buttons: ['OK'], ...about });
    },
    quit: () => app.quit(),
  };
}

function showAdminWindow(url: string): void {
  if (adminWindow && !adminWindow.isDestroyed()) {
    focusWindow(adminWindow);
    return;
  }
  const window = openAdminWindow(
    {
      createWindow: (options) => new BrowserWindow(options),
      openExternal: (target) => shell.openExternal(target),
      onPageGone: (details, reloaded) => log.warn({ ...details, reloaded }, "the admin window's page process is gone"),
    },
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
    const version = `Electron/${process.versions.electron} Chrome/${process.versions.chrome}`;
    return startServerHost(
      config,
      {
        log,
        uiDir: path.join(app.getAppPath(), 'dist', 'ui'),
        pageSource: async ({ proxyServer, onRenderPathFallback }) =>
          new ElectronPageSource(
            { createWindow: (options) => new BrowserWindow(options), sessionFor: (partition) => session.fromPartition(partition, { cache: false }) },
            { proxyServer, version, log, partitions: 2 * config.renderConcurrency, onRenderPathFallback },
          ),
      },
      { freePortIfTaken: settings.freePortIfTaken },
    ).then((server) => {
      // The next launch asks for the same port, so local tools keep their URL.
      rememberPort(userDataDir, server.port);
      return server;
    });
  },
  handOverToken: (server) =>
    handOverAdminToken({ ipcMain, adminToken: server.adminToken, serverOrigin: new URL(server.url).origin, adminContents: () => adminWindow?.webContents }),
  showTray: (server) => {
    const actions = shellActions(server);
    Menu.setApplicationMenu(Menu.buildFromTemplate(applicationMenuTemplate(actions, process.platform === 'darwin')));
    heldForLife.tray = showTray(
      { createTray: (icon) => new Tray(icon), buildMenu: (template) => Menu.buildFromTemplate(template) },
      resource('tray.png'),
      actions,
    );
    log.info({ url: server.url, data_dir: server.dataDir }, 'desktop app ready');
  },
  openAdminWindow: (server) => {
    serverUrl = server.url;
    showAdminWindow(server.url);
  },
  reportStartupFailure: (error) => dialog.showErrorBox('Quire could not start', (error as Error)?.message ?? String(error)),
  exit: (code) => app.exit(code),
});
