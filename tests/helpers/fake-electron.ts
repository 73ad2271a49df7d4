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
import type { DebuggerLike } from '../../electron/debugger-session.ts';
import type { PageSourceFactory } from '../../server/src/render/index.ts';
import { ElectronPageSource } from '../../electron/electron-page-source.ts';
import type { ElectronRenderApi, ProxySettings, RenderSession, RenderWebContents, RenderWindow, RenderWindowOptions } from '../../electron/render-window.ts';
import type { ElectronPrintOptions } from '../../electron/print-options.ts';

// Any listener fits (never[]): each event's emitter passes the arguments Electron would for it.
type Listener = (...args: never[]) => void;

class Listeners {
  private readonly map = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.map.set(event, [...(this.map.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.map.get(event) ?? []) (listener as (...args: unknown[]) => void)(...args);
  }
  count(event: string): number {
    return this.map.get(event)?.length ?? 0;
  }
}

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

/**
 * Commands Electron's webContents.debugger answers with an error: it opens no new pages over CDP
 * and prints only through webContents.printToPDF (electron/electron-page-source.ts), and its
 * Chromium is a full one, without the headless shell's HeadlessExperimental domain.
 */
const ELECTRON_REFUSES: ReadonlyArray<readonly [pattern: RegExp, message: string]> = [
  [/^Target\.createTarget$/, 'Not supported'],
  [/^Page\.printToPDF$/, 'PrintToPDF is not implemented'],
  [/^HeadlessExperimental\./, "wasn't found"],
];

const browserSessions = new WeakMap<Browser, Promise<CDPSession>>();

/**
 * One session on the browser target per browser, kept: sessions opened and detached per window
 * lost puppeteer its browser target when two windows opened at once ("Browser target is not found").
 */
function browserSessionOf(browser: Browser): Promise<CDPSession> {
  let session = browserSessions.get(browser);
  if (!session) {
    session = browser.target().createCDPSession();
    browserSessions.set(browser, session);
  }
  return session;
}

class FakeDebugger implements DebuggerLike {
  detachEvents = 0;
  private readonly listeners = new Listeners();
  private attached = false;

  constructor(private readonly session: Promise<CDPSession>) {
    void session.then(
      (cdp) => {
        // puppeteer's emitter (mitt) hands every event to '*' listeners: Electron's single 'message' event.
        (cdp as unknown as { on(type: '*', handler: (type: unknown, event: unknown) => void): void }).on('*', (type, event) => {
          if (typeof type === 'string' && type.includes('.')) this.listeners.emit('message', {}, type, event, '');
        });
      },
      () => undefined,
    );
  }

  attach(): void {
    if (this.attached) throw new Error('Debugger is already attached to the target');
    this.attached = true;
  }
  detach(): void {
    this.attached = false;
  }
  isAttached(): boolean {
    return this.attached;
  }
  async sendCommand(method: string, params?: object): Promise<unknown> {
    if (!this.attached) throw new Error('No target available');
    const refused = ELECTRON_REFUSES.find(([pattern]) => pattern.test(method));
    if (refused) throw new Error(`'${method}' ${refused[1]}`);
    return (await this.session).send(method as 'Page.enable', params as undefined);
  }
  on(event: string, listener: Listener): this {
    this.listeners.on(event, listener);
    return this;
  }
  /** What Electron does when the window closes. */
  emitDetach(reason: string): void {
    this.detachEvents++;
    this.attached = false;
    this.listeners.emit('detach', {}, reason);
  }
}

class FakeWebContents implements RenderWebContents {
  readonly debugger: FakeDebugger;
  readonly events = new Listeners();
  windowOpenHandler: ((details: unknown) => { action: 'deny' }) | undefined;
  printed: ElectronPrintOptions[] = [];
  audioMuted = false;
  webRTCIPHandlingPolicy: string | undefined;

  constructor(private readonly session: Promise<CDPSession>) {
    this.debugger = new FakeDebugger(session);
    void session.then(
      (cdp) => {
        cdp.on('Inspector.targetCrashed', () => this.events.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 9 }));
      },
      () => undefined,
    );
  }

  setAudioMuted(muted: boolean): void {
    this.audioMuted = muted;
  }
  setWebRTCIPHandlingPolicy(policy: string): void {
    this.webRTCIPHandlingPolicy = policy;
  }

  /** Electron's printToPDF, as Chromium's Page.printToPDF with the same settings. */
  async printToPDF(options: ElectronPrintOptions): Promise<Uint8Array> {
    this.printed.push(options);
    const { data } = await (await this.session).send('Page.printToPDF', {
      landscape: options.landscape,
      displayHeaderFooter: options.displayHeaderFooter,
      printBackground: options.printBackground,
      scale: options.scale,
      paperWidth: options.pageSize.width,
      paperHeight: options.pageSize.height,
      marginTop: options.margins.top,
      marginBottom: options.margins.bottom,
      marginLeft: options.margins.left,
      marginRight: options.margins.right,
      pageRanges: options.pageRanges,
      headerTemplate: options.headerTemplate,
      footerTemplate: options.footerTemplate,
      preferCSSPageSize: options.preferCSSPageSize,
      generateTaggedPDF: options.generateTaggedPDF,
      generateDocumentOutline: options.generateDocumentOutline,
    });
    return Buffer.from(data, 'base64');
  }
  setWindowOpenHandler(handler: (details: unknown) => { action: 'deny' }): void {
    this.windowOpenHandler = handler;
  }
  on(event: 'render-process-gone', listener: (event: unknown, details: { reason: string }) => void): this {
    this.events.on(event, listener);
    return this;
  }
  /** Crashes the page's renderer process for real; Chromium then sends Inspector.targetCrashed. */
  crash(): void {
    void this.session.then((cdp) => cdp.send('Page.crash')).catch(() => undefined);
  }
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
