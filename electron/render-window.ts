// The Electron surface the desktop page source drives (electron-page-source.ts): the window,
// contents and session functions main.ts hands it, every render window's options, and each render
// partition's lock-down (guard proxy, no permissions, no downloads). Apart so the lanes' logic
// reads alone, and the test fake (tests/helpers/fake-electron.ts) implements just this contract.

import type { DebuggerLike } from './debugger-session.ts';
import type { ParityContents } from './engine-parity.ts';
import type { ElectronPrintOptions } from './print-options.ts';

export interface RenderWindowOptions {
  show: false;
  width: number;
  height: number;
  useContentSize: true;
  webPreferences: {
    partition: string;
    sandbox: true;
    contextIsolation: true;
    nodeIntegration: false;
    nodeIntegrationInSubFrames: false;
    webviewTag: false;
    javascript: true;
    webSecurity: true;
    disableDialogs: true;
    backgroundThrottling: false;
    spellcheck: false;
    navigateOnDragDrop: false;
  };
}

export interface RenderWebContents extends ParityContents {
  readonly debugger: DebuggerLike;
  printToPDF(options: ElectronPrintOptions): Promise<Uint8Array>;
  setWindowOpenHandler(handler: (details: unknown) => { action: 'deny' }): void;
  on(event: 'render-process-gone', listener: (event: unknown, details: { reason: string }) => void): unknown;
}

export interface RenderWindow {
  readonly webContents: RenderWebContents;
  loadURL(url: string): Promise<void>;
  destroy(): void;
  isDestroyed(): boolean;
}

export type ProxySettings = { mode: 'fixed_servers'; proxyRules: string; proxyBypassRules: string } | { mode: 'direct' };

export interface RenderSession {
  setProxy(config: ProxySettings): Promise<void>;
  setPermissionRequestHandler(handler: (webContents: unknown, permission: unknown, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (...args: unknown[]) => boolean): void;
  on(event: 'will-download', listener: (event: { preventDefault(): void }) => void): unknown;
  clearStorageData(): Promise<void>;
  clearCache(): Promise<void>;
}

/** The Electron functions the source needs: `new BrowserWindow(options)` and `session.fromPartition(p, { cache: false })`. */
export interface ElectronRenderApi {
  createWindow(options: RenderWindowOptions): RenderWindow;
  sessionFor(partition: string): RenderSession;
}

/** Every render window's options: hidden, sandboxed, isolated, no Node, its own partition. */
export function renderWindowOptions(partition: string): RenderWindowOptions {
  return {
    show: false,
    width: 1280,
    height: 900,
    useContentSize: true,
    webPreferences: {
      partition,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      javascript: true,
      webSecurity: true,
      // alert()/confirm() would otherwise open native dialogs from a hidden window.
      disableDialogs: true,
      // Hidden windows are "background": throttled timers would stall renders (cf. launch-flags.ts).
      backgroundThrottling: false,
      spellcheck: false,
      navigateOnDragDrop: false,
    },
  };
}

/** Proxy settings that send every request of a render partition, loopback included, through the guard. */
export function guardedProxy(proxyServer: string): ProxySettings & { mode: 'fixed_servers' } {
  // '<-loopback>' removes Chromium's implicit loopback bypass, as launch-flags.ts does headless.
  return { mode: 'fixed_servers', proxyRules: proxyServer, proxyBypassRules: '<-loopback>' };
}

/** A render partition's own rules: every request through the guard (when on), no permissions, no downloads. */
export async function lockDownSession(session: RenderSession, proxyServer: string | undefined): Promise<void> {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.on('will-download', (event) => event.preventDefault());
  await session.setProxy(proxyServer ? guardedProxy(proxyServer) : { mode: 'direct' });
}
