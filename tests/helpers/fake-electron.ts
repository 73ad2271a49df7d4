// A fake of the Electron API the desktop app's page source uses (ElectronRenderApi), backed by a
// real headless Chromium: each partition is a browser context that lives as long as the app (as
// Electron keeps a partition's session until exit) and keeps its data until clearStorageData; each
// "BrowserWindow" is a page target in its partition's context, its webContents.debugger a CDP
// session of that target, and printToPDF prints with Page.printToPDF. A crash is a real renderer
// crash (Page.crash): as in Electron, the debugger stays attached and receives
// Inspector.targetCrashed, and the webContents emits 'render-process-gone'.
// It records what the source asked for (window options, proxy, handlers, audio, WebRTC policy).
// The debugger refuses what Electron's refuses (ELECTRON_REFUSES), so a source that relied on one
// of them fails here as it would in the app. On Debian's full chromium in new headless mode
// (launch({ chromePath })) the browser is of Electron's kind too: no HeadlessExperimental domain.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type BrowserContext, type CDPSession, type Protocol } from 'puppeteer-core';
import { findChromium } from '../../server/src/render/chromium-path.ts';
import { launchOptions, needsNoSandbox } from '../../server/src/render/launch-flags.ts';
import type { PageSourceFactory } from '../../server/src/render/index.ts';
import { ElectronPageSource } from '../../electron/electron-page-source.ts';
import type { ElectronRenderApi, ProxySettings, RenderSession, RenderWindow, RenderWindowOptions } from '../../electron/render-window.ts';
import { Listeners, browserSessionOf, FakeWebContents } from './fake-electron-contents.ts';

export class FakeSession implements RenderSession {
  proxy: ProxySettings | undefined;
  private context: Promise<BrowserContext> | undefined;
  /** Windows of this partition not yet destroyed. */
  readonly openWindows = new Set<FakeWindow>();
  /** clearStorageData calls made while a window of the partition was still open (the source destroys them first). */
  clearedWhileOpen = 0;
  permissionRequestHandler: ((webContents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined;
  permissionCheckHandler: ((...args: unknown[]) => boolean) | undefined;
  readonly events = new Listeners();
  cleared = 0;

  constructor(
    readonly partition: string,
    private readonly browser: Browser,
  ) {}

  /** The partition's browser context, made with its proxy on first use. */
  contextForWindow(): Promise<BrowserContext> {
    const proxy = this.proxy;
    this.context ??= this.browser.createBrowserContext(
      proxy?.mode === 'fixed_servers' ? { proxyServer: proxy.proxyRules, proxyBypassList: proxy.proxyBypassRules.split(/[,;]/) } : {},
    );
    return this.context;
  }

  async setProxy(config: ProxySettings): Promise<void> {
    this.proxy = config;
  }
  setPermissionRequestHandler(handler: FakeSession['permissionRequestHandler']): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: (...args: unknown[]) => boolean): void {
    this.permissionCheckHandler = handler;
  }
  on(event: 'will-download', listener: (event: { preventDefault(): void }) => void): this {
    this.events.on(event, listener);
    return this;
  }
  /** Empties the partition: its next window starts in a context with no cookie, storage or cache. */
  async clearStorageData(): Promise<void> {
    this.cleared++;
    if (this.openWindows.size > 0) this.clearedWhileOpen++;
    const context = this.context;
    this.context = undefined;
    await context?.then((opened) => opened.close()).catch(() => undefined);
  }
  async clearCache(): Promise<void> {}
}

export class FakeWindow implements RenderWindow {
  readonly webContents: FakeWebContents;
  private destroyed = false;
  private readonly opened: Promise<{ targetId: string; session: CDPSession }>;

  constructor(
    private readonly browser: Browser,
    readonly options: RenderWindowOptions,
    readonly session: FakeSession,
  ) {
    session.openWindows.add(this);
    this.opened = (async () => {
      // The partition's proxy, as Electron's session.setProxy applies it to every request of the partition.
      const context = await session.contextForWindow();
      const browserSession = await browserSessionOf(browser);
      const { targetId } = await browserSession.send('Target.createTarget', { url: 'about:blank', browserContextId: context.id });
      const target = await context.waitForTarget((candidate) => (candidate as unknown as { _targetId: string })._targetId === targetId);
      return { targetId, session: await target.createCDPSession() };
    })();
    this.opened.catch(() => undefined);
    this.webContents = new FakeWebContents(this.opened.then((opened) => opened.session));
  }

  async loadURL(url: string): Promise<void> {
    const { session } = await this.opened;
    if (url !== 'about:blank') await session.send('Page.navigate', { url });
  }
  destroy(): void {
    this.destroyed = true;
    this.session.openWindows.delete(this);
    void this.opened
      .then(async ({ targetId }) => {
        const browserSession = await browserSessionOf(this.browser);
        await browserSession.send('Target.closeTarget', { targetId });
      })
      .catch(() => undefined);
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

export class FakeElectron implements ElectronRenderApi {
  readonly windows: FakeWindow[] = [];
  readonly sessions = new Map<string, FakeSession>();

  private constructor(
    private readonly browser: Browser,
    private readonly profileDir: string,
    private readonly browserVersion: string,
  ) {}

  /**
   * Launches a Chromium to stand in for Electron's: the project's default one, or chromePath
   * (Debian's full chromium in new headless mode is the closest to Electron's).
   */
  static async launch(options: { chromePath?: string } = {}): Promise<FakeElectron> {
    const executable = await findChromium(options.chromePath ?? '');
    const profileDir = await mkdtemp(path.join(os.tmpdir(), 'quire-fake-electron-'));
    const browser = await puppeteer.launch(launchOptions(executable, { noSandbox: needsNoSandbox(), userDataDir: profileDir }));
    // Electron asks setWindowOpenHandler before a popup exists, and the source denies every one;
    // here the popup is closed as soon as it appears, so none outlives its opener's render either.
    const popups = await browser.target().createCDPSession();
    popups.on('Target.targetCreated', ({ targetInfo }: Protocol.Target.TargetCreatedEvent) => {
      if (targetInfo.type === 'page' && targetInfo.openerId) void popups.send('Target.closeTarget', { targetId: targetInfo.targetId }).catch(() => undefined);
    });
    await popups.send('Target.setDiscoverTargets', { discover: true });
    return new FakeElectron(browser, profileDir, await browser.version());
  }

  get version(): string {
    return `FakeElectron/0 ${this.browserVersion}`;
  }

  createWindow(options: RenderWindowOptions): FakeWindow {
    const session = this.sessionFor(options.webPreferences.partition);
    const window = new FakeWindow(this.browser, options, session);
    this.windows.push(window);
    return window;
  }

  sessionFor(partition: string): FakeSession {
    let session = this.sessions.get(partition);
    if (!session) {
      session = new FakeSession(partition, this.browser);
      this.sessions.set(partition, session);
    }
    return session;
  }

  liveWindows(): FakeWindow[] {
    return this.windows.filter((window) => !window.isDestroyed());
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    await rm(this.profileDir, { recursive: true, force: true });
  }
}

/**
 * The desktop app's page source (electron/electron-page-source.ts) on a FakeElectron of its own,
 * as a PageSourceFactory for createApp: the same wiring as electron/main.ts; closing the source
 * closes its browser. `launched` gets the FakeElectron (to crash or count its windows).
 */
export function electronStandIn(chromePath: string, launched?: (electron: FakeElectron) => void): PageSourceFactory {
  return async ({ proxyServer, log }) => {
    const electron = await FakeElectron.launch({ chromePath });
    launched?.(electron);
    const source = new ElectronPageSource(electron, { proxyServer, version: electron.version, log });
    const close = source.close.bind(source);
    source.close = async () => {
      await close();
      await electron.close();
    };
    return source;
  };
}
