// A fake of the Electron API the desktop app's page source uses (ElectronRenderApi), backed by a
// real headless Chromium: each "BrowserWindow" is a page target in a browser context of its own
// (its partition), its webContents.debugger is a CDP session of that target, and printToPDF prints
// with Page.printToPDF. So the Electron page source renders real PDFs here without Electron.
// It records what the source asked for (window options, proxy, handlers) for the tests to check.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type BrowserContext, type CDPSession } from 'puppeteer-core';
import { findChromium } from '../../server/src/render/chromium-path.ts';
import { launchFlags, needsNoSandbox } from '../../server/src/render/launch-flags.ts';
import type { DebuggerLike } from '../../electron/debugger-session.ts';
import type { ElectronRenderApi, ProxySettings, RenderSession, RenderWebContents, RenderWindow, RenderWindowOptions } from '../../electron/electron-page-source.ts';
import type { ElectronPrintOptions } from '../../electron/print-options.ts';

type Listener = (...args: any[]) => void;

class Listeners {
  private readonly map = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.map.set(event, [...(this.map.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.map.get(event) ?? []) listener(...args);
  }
  count(event: string): number {
    return this.map.get(event)?.length ?? 0;
  }
}

export class FakeSession implements RenderSession {
  proxy: ProxySettings | undefined;
  permissionRequestHandler: ((webContents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined;
  permissionCheckHandler: ((...args: unknown[]) => boolean) | undefined;
  readonly events = new Listeners();
  cleared = 0;

  constructor(readonly partition: string) {}

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
  async clearStorageData(): Promise<void> {
    this.cleared++;
  }
  async clearCache(): Promise<void> {}
}

class FakeDebugger implements DebuggerLike {
  private readonly listeners = new Listeners();
  private attached = false;

  constructor(private readonly session: Promise<CDPSession>) {
    void session.then((cdp) => {
      // puppeteer's emitter (mitt) hands every event to '*' listeners: Electron's single 'message' event.
      (cdp as unknown as { on(type: '*', handler: (type: unknown, event: unknown) => void): void }).on('*', (type, event) => {
        if (typeof type === 'string' && type.includes('.')) this.listeners.emit('message', {}, type, event, '');
      });
    }, () => undefined);
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
  async sendCommand(method: string, params?: object): Promise<any> {
    if (!this.attached) throw new Error('No target available');
    return (await this.session).send(method as 'Page.enable', params as undefined);
  }
  on(event: string, listener: Listener): this {
    this.listeners.on(event, listener);
    return this;
  }
  /** What Electron does when the page's process dies or the window closes. */
  emitDetach(reason: string): void {
    this.attached = false;
    this.listeners.emit('detach', {}, reason);
  }
}

class FakeWebContents implements RenderWebContents {
  readonly debugger: FakeDebugger;
  readonly events = new Listeners();
  windowOpenHandler: ((details: unknown) => { action: 'deny' }) | undefined;
  printed: ElectronPrintOptions[] = [];

  constructor(private readonly session: Promise<CDPSession>) {
    this.debugger = new FakeDebugger(session);
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
  /** Simulates the page's renderer process dying, as Electron reports it. */
  crash(): void {
    this.events.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 9 });
    this.debugger.emitDetach('Render process gone.');
  }
}

export class FakeWindow implements RenderWindow {
  readonly webContents: FakeWebContents;
  private destroyed = false;
  private readonly opened: Promise<{ context: BrowserContext; session: CDPSession }>;

  constructor(
    browser: Browser,
    readonly options: RenderWindowOptions,
    readonly session: FakeSession,
  ) {
    this.opened = (async () => {
      // The partition's proxy, as Electron's session.setProxy applies it to every request of the partition.
      const context = await browser.createBrowserContext(
        session.proxy ? { proxyServer: session.proxy.proxyRules, proxyBypassList: session.proxy.proxyBypassRules.split(/[,;]/) } : {},
      );
      const browserSession = await browser.target().createCDPSession();
      const [target] = await Promise.all([
        context.waitForTarget((candidate) => candidate.type() === 'page'),
        browserSession.send('Target.createTarget', { url: 'about:blank', browserContextId: context.id }),
      ]);
      await browserSession.detach();
      return { context, session: await target.createCDPSession() };
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
    void this.opened.then(({ context }) => context.close()).catch(() => undefined);
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
  ) {}

  /** Launches the project's headless Chromium to stand in for Electron's. */
  static async launch(): Promise<FakeElectron> {
    const executable = await findChromium('');
    const profileDir = await mkdtemp(path.join(os.tmpdir(), 'quire-fake-electron-'));
    const browser = await puppeteer.launch({
      executablePath: executable.path,
      ignoreDefaultArgs: true,
      args: launchFlags({ isHeadlessShell: executable.isHeadlessShell, noSandbox: needsNoSandbox(), userDataDir: profileDir }),
      pipe: true,
      waitForInitialPage: false,
      headless: executable.isHeadlessShell ? 'shell' : true,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    return new FakeElectron(browser, profileDir);
  }

  get version(): string {
    return 'FakeElectron/0 (headless Chromium)';
  }

  createWindow(options: RenderWindowOptions): FakeWindow {
    const session = this.sessionFor(options.webPreferences.partition);
    const window = new FakeWindow(this.browser, options, session);
    this.windows.push(window);
    return window;
  }

  sessionFor(partition: string): FakeSession {
    let session = this.sessions.get(partition);
    if (!session) this.sessions.set(partition, (session = new FakeSession(partition)));
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
