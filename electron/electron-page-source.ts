// PageSource on Electron's own Chromium, for the desktop app: the same lanes, isolation rules
// (render/lane-policy.ts) and CdpPage as the headless source, over webContents.debugger.
//
// A lane is a hidden, sandboxed BrowserWindow in a fresh in-memory session partition
// ("quire-render-<uuid>", never "persist:"). An html lane serves up to LANE_RENDERS renders, each
// on a fresh origin with the cookie wipe at the gate; a url render gets a window and partition of
// its own, destroyed afterwards. Each partition sends every request through the network guard's
// egress proxy and refuses popups, permissions and downloads.
//
// Why the debugger of a window rather than puppeteer on --remote-debugging-port: Electron answers
// Target.createTarget with "Not supported" (no new pages over CDP) and a TCP debugging port would
// let any local process attach to the admin window and read its token. Printing goes through
// webContents.printToPDF, since Electron's protocol has no Page.printToPDF.
// Why not offscreen windows: printing needs no painted frames, and a hidden window with
// backgroundThrottling off already reports itself visible and runs its timers at full speed.
// This module does not import Electron: main.ts hands it the BrowserWindow and session functions.

import { randomUUID } from 'node:crypto';
import type { Protocol } from 'puppeteer-core';
import type { Logger } from '../server/src/logger.ts';
import { CdpPage, type CdpPageOptions } from '../server/src/render/cdp-page.ts';
import { RendererCrashedError } from '../server/src/render/errors.ts';
import { isLaneReusable, lanePageOptions, tearDownLane } from '../server/src/render/lane-policy.ts';
import type { PageLease, PageSource, RenderSource } from '../server/src/render/page-source.ts';
import { DebuggerSession, type DebuggerLike } from './debugger-session.ts';
import { toElectronPrintOptions, type ElectronPrintOptions } from './print-options.ts';

export const RENDER_PARTITION_PREFIX = 'quire-render-';

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

export interface RenderWebContents {
  readonly debugger: DebuggerLike;
  printToPDF(options: ElectronPrintOptions): Promise<Uint8Array>;
  setWindowOpenHandler(handler: (details: any) => { action: 'deny' }): void;
  on(event: 'render-process-gone', listener: (event: unknown, details: { reason: string }) => void): unknown;
}

export interface RenderWindow {
  readonly webContents: RenderWebContents;
  loadURL(url: string): Promise<void>;
  destroy(): void;
  isDestroyed(): boolean;
}

export interface ProxySettings {
  mode: 'fixed_servers';
  proxyRules: string;
  proxyBypassRules: string;
}

export interface RenderSession {
  setProxy(config: ProxySettings): Promise<void>;
  setPermissionRequestHandler(handler: (webContents: any, permission: any, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (...args: any[]) => boolean): void;
  on(event: 'will-download', listener: (event: { preventDefault(): void }) => void): unknown;
  clearStorageData(): Promise<void>;
  clearCache(): Promise<void>;
}

/** The Electron functions the source needs: `new BrowserWindow(options)` and `session.fromPartition(p, { cache: false })`. */
export interface ElectronRenderApi {
  createWindow(options: RenderWindowOptions): RenderWindow;
  sessionFor(partition: string): RenderSession;
}

export interface ElectronPageSourceOptions {
  /** The network guard's egress proxy (PageSourceContext.proxyServer); undefined when the guard is off. */
  proxyServer?: string;
  /** "Electron/x Chrome/y", for /health. */
  version: string;
  log: Logger;
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
export function guardedProxy(proxyServer: string): ProxySettings {
  // '<-loopback>' removes Chromium's implicit loopback bypass, as launch-flags.ts does headless.
  return { mode: 'fixed_servers', proxyRules: proxyServer, proxyBypassRules: '<-loopback>' };
}

/**
 * Chromium switches for the whole app, applied before it is ready (the guard's part of
 * launch-flags.ts that Electron cannot set per partition): with the guard on, Chromium resolves no
 * host itself (every page request goes through the proxy; the admin window and the proxy are on
 * 127.0.0.1, which stays reachable), and neither QUIC nor WebRTC may send UDP around the proxy.
 */
export function renderEngineSwitches(networkGuard: boolean): ReadonlyArray<readonly [name: string, value?: string]> {
  if (!networkGuard) return [];
  return [
    ['host-resolver-rules', 'MAP * ~NOTFOUND , EXCLUDE 127.0.0.1'],
    ['disable-quic'],
    ['force-webrtc-ip-handling-policy', 'disable_non_proxied_udp'],
  ];
}

/** Prints with webContents.printToPDF; everything else is CdpPage's. */
class ElectronCdpPage extends CdpPage {
  constructor(
    private readonly cdp: DebuggerSession,
    private readonly contents: RenderWebContents,
    options: CdpPageOptions,
  ) {
    super(cdp, options);
  }

  override async print(params: Protocol.Page.PrintToPDFRequest): Promise<Uint8Array> {
    // As CdpPage does: a browser's print waits for web fonts.
    await this.cdp.send('Runtime.evaluate', { expression: 'document.fonts.ready.then(() => true)', awaitPromise: true, returnByValue: true });
    return this.contents.printToPDF(toElectronPrintOptions(params));
  }
}

interface Lane {
  window: RenderWindow;
  session: RenderSession;
  cdp: DebuggerSession;
  page: CdpPage;
  renders: number;
  isDead: boolean;
}

export class ElectronPageSource implements PageSource {
  private readonly idle: Lane[] = [];
  private readonly lanes = new Set<Lane>();
  private closed = false;
  restarts = 0;

  constructor(
    private readonly electron: ElectronRenderApi,
    private readonly options: ElectronPageSourceOptions,
  ) {}

  get version(): string {
    return this.options.version;
  }

  /** The engine is this process: it answers as long as the source is open. */
  async probe(): Promise<boolean> {
    return !this.closed;
  }

  async acquire(kind: RenderSource['kind']): Promise<PageLease> {
    if (this.closed) throw new RendererCrashedError('the renderer is shutting down');
    try {
      const lane = (kind === 'html' && this.takeIdleLane()) || (await this.openLane(kind));
      return { page: lane.page, release: (renderSucceeded) => this.release(lane, kind, renderSucceeded) };
    } catch (error) {
      if (error instanceof RendererCrashedError) throw error;
      throw new RendererCrashedError(`could not open a page: ${(error as Error).message}`);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.idle.length = 0;
    await Promise.all([...this.lanes].map((lane) => this.discard(lane)));
  }

  private takeIdleLane(): Lane | undefined {
    while (this.idle.length > 0) {
      const lane = this.idle.pop()!;
      if (!lane.isDead && !lane.cdp.isDetached && !lane.window.isDestroyed()) return lane;
      void this.discard(lane);
    }
    return undefined;
  }

  private async openLane(kind: RenderSource['kind']): Promise<Lane> {
    const partition = `${RENDER_PARTITION_PREFIX}${randomUUID()}`;
    const session = this.electron.sessionFor(partition);
    await this.lockDown(session);
    const window = this.electron.createWindow(renderWindowOptions(partition));
    const cdp = new DebuggerSession(window.webContents.debugger);
    const page = new ElectronCdpPage(cdp, window.webContents, lanePageOptions(kind, cdp));
    const lane: Lane = { window, session, cdp, page, renders: 0, isDead: false };
    this.lanes.add(lane);
    try {
      window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
      window.webContents.on('render-process-gone', (_event, details) => {
        lane.isDead = true;
        if (this.closed) return;
        this.restarts++;
        this.options.log.warn({ reason: details.reason }, 'a render window\'s process is gone: its lane is replaced');
      });
      // A committed document first, so the debugger attaches to a live renderer.
      await window.loadURL('about:blank');
      cdp.attach();
      await page.init();
      return lane;
    } catch (error) {
      await this.discard(lane);
      throw error;
    }
  }

  /** The partition's own rules: every request through the guard, no permissions, no downloads. */
  private async lockDown(session: RenderSession): Promise<void> {
    session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
    session.setPermissionCheckHandler(() => false);
    session.on('will-download', (event) => event.preventDefault());
    if (this.options.proxyServer) await session.setProxy(guardedProxy(this.options.proxyServer));
  }

  private async release(lane: Lane, kind: RenderSource['kind'], renderSucceeded: boolean): Promise<void> {
    lane.renders++;
    if (isLaneReusable(kind, renderSucceeded, lane.renders) && !lane.isDead && !lane.cdp.isDetached && !this.closed && (await tearDownLane(lane.page))) {
      this.idle.push(lane);
    } else {
      await this.discard(lane);
    }
  }

  /**
   * Destroys the lane's window and empties its partition. Electron keeps an in-memory partition's
   * (empty) session object until the app exits; its storage and cache are cleared here.
   */
  private async discard(lane: Lane): Promise<void> {
    if (!this.lanes.delete(lane)) return;
    lane.cdp.detach();
    if (!lane.window.isDestroyed()) lane.window.destroy();
    await Promise.all([lane.session.clearStorageData(), lane.session.clearCache()]).catch(() => undefined);
  }
}
