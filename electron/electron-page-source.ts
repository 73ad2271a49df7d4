// PageSource on Electron's own Chromium, for the desktop app: the same lanes, isolation rules
// (render/lane-policy.ts) and CdpPage as the headless source, over webContents.debugger.
//
// A lane is a hidden, sandboxed, muted BrowserWindow in an in-memory session partition of a small
// fixed pool ("quire-render-<n>", never "persist:"; partition-pool.ts), emptied before it is used
// again. An html lane serves up to LANE_RENDERS renders, each on a fresh origin with the cookie
// wipe at the gate; a url render gets a window of its own, destroyed afterwards. Each partition
// sends every request through the network guard's egress proxy and refuses popups, permissions and
// downloads (render-window.ts: the windows' options, the partitions' lock-down). A renderer crash
// ends the render at once as RendererCrashedError (503).
//
// Why the debugger of a window rather than puppeteer on --remote-debugging-port: Electron answers
// Target.createTarget with "Not supported" (no new pages over CDP) and a TCP debugging port would
// let any local process attach to the admin window and read its token. Printing goes through
// webContents.printToPDF, since Electron's protocol has no Page.printToPDF.
// Why not offscreen windows: printing needs no painted frames, and a hidden window with
// backgroundThrottling off already reports itself visible and runs its timers at full speed.
// This module does not import Electron: main.ts hands it the BrowserWindow and session functions.

import type { Protocol } from 'puppeteer-core';
import type { Logger } from '../server/src/logger.ts';
import { CdpPage, type CdpPageOptions, type PageInspection } from '../server/src/render/cdp-page.ts';
import { RendererCrashedError } from '../server/src/render/errors.ts';
import { isLaneReusable, lanePageOptions, tearDownLane } from '../server/src/render/lane-policy.ts';
import type { PageLease, PageSource } from '../server/src/render/page-source.ts';
import type { RenderClock } from '../server/src/render/cdp-page.ts';
import { isVirtual, leaseMode, type PageUse, type RenderPath, type RenderPathMode, UNPROBED_PATH } from '../server/src/render/render-path.ts';
import { checkFramesOnVirtualClock, probeRenderPath } from '../server/src/render/render-path-probe.ts';
import type { RenderSource } from '../server/src/render/render-source.ts';
import { DebuggerSession } from './debugger-session.ts';
import { applyWindowParity } from './engine-parity.ts';
import { PartitionPool, type Partition } from './partition-pool.ts';
import { toElectronPrintOptions } from './print-options.ts';
import {
  lockDownSession,
  renderWindowOptions,
  type ElectronRenderApi,
  type RenderSession,
  type RenderWebContents,
  type RenderWindow,
} from './render-window.ts';

export const RENDER_PARTITION_PREFIX = 'quire-render-';

export interface ElectronPageSourceOptions {
  /** The network guard's egress proxy (PageSourceContext.proxyServer); undefined when the guard is off. */
  proxyServer?: string;
  /** "Electron/x Chrome/y", for /health. */
  version: string;
  log: Logger;
  /** Session partitions the source keeps (default 4); give it twice the render concurrency. */
  partitions?: number;
  /** The probe chose a render path below the best one (render-path.ts). */
  onRenderPathFallback?: (mode: RenderPathMode, by: 'probe' | 'breaker') => void;
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

  override async print(params: Protocol.Page.PrintToPDFRequest, inspect?: PageInspection): Promise<Uint8Array> {
    // As CdpPage does: a browser's print waits for web fonts (and a receipt looks at the page then).
    await this.fontsReady(inspect);
    return this.cdp.untilClosed(this.whilePrinting(this.contents.printToPDF(toElectronPrintOptions(params))));
  }

  // A wait for a lifecycle event is no command a crash could reject: it ends with the session.
  override load(...args: Parameters<CdpPage['load']>): ReturnType<CdpPage['load']> {
    return this.cdp.untilClosed(super.load(...args));
  }
}

interface Lane {
  window: RenderWindow;
  partition: Partition<RenderSession>;
  cdp: DebuggerSession;
  page: CdpPage;
  renders: number;
  isDead: boolean;
  /** The clock its page runs on; a page once on the virtual clock stays on it (its clock is held between renders), as in the headless source. */
  clock: RenderClock;
}

let sourcesMade = 0;

export class ElectronPageSource implements PageSource {
  private readonly idle: Lane[] = [];
  private readonly lanes = new Set<Lane>();
  private readonly partitions: PartitionPool<RenderSession>;
  private closed = false;
  private path: RenderPath = UNPROBED_PATH;
  private started: Promise<void> | undefined;
  restarts = 0;

  constructor(
    private readonly electron: ElectronRenderApi,
    private readonly options: ElectronPageSourceOptions,
  ) {
    // Named per source: a second source in the same process (tests) must not inherit the first one's rules.
    const source = ++sourcesMade;
    const names = Array.from({ length: Math.max(1, options.partitions ?? 4) }, (_, index) => `${RENDER_PARTITION_PREFIX}${source}-${index}`);
    this.partitions = new PartitionPool(names, async (name) => {
      const session = electron.sessionFor(name);
      await lockDownSession(session, options.proxyServer);
      return session;
    });
  }

  get version(): string {
    return this.options.version;
  }

  /** The path default renders take (render-path.ts), probed by start(): Electron has no begin-frame control, so compositor frames at best. */
  get renderPath(): RenderPath {
    return this.path;
  }

  /** Probes the render path: two renders at once on the virtual clock with compositor frames, else the wall clock. */
  start(): Promise<void> {
    this.started ??= probeRenderPath({
      isSwitchedOff: () => undefined,
      lacks: (mode) => (mode === 'virtual-begin-frame' ? 'Electron windows cannot be created with begin-frame control' : undefined),
      tryMode: (mode) => this.tryMode(mode),
    }).then((path) => {
      this.path = path;
      const log = path.mode === 'real' ? this.options.log.warn.bind(this.options.log) : this.options.log.info.bind(this.options.log);
      log({ mode: path.mode, reason: path.reason, probeMs: path.probeMs }, 'render path chosen');
      if (path.disabled.length > 0) this.options.onRenderPathFallback?.(path.mode, 'probe');
    });
    return this.started;
  }

  /** Two html lanes at once, each rendering the probe page on the virtual clock; handed back as after a render. */
  private async tryMode(_mode: RenderPathMode): Promise<void> {
    const opened = await Promise.allSettled([this.openLane('html', 'virtual'), this.openLane('html', 'virtual')]);
    const lanes = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    let ok = false;
    try {
      const failed = opened.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
      await Promise.all(lanes.map((lane) => checkFramesOnVirtualClock(lane.page)));
      ok = true;
    } finally {
      await Promise.all(lanes.map((lane) => this.release(lane, 'html', ok)));
    }
  }

  /** The engine is this process: it answers as long as the source is open. */
  async probe(): Promise<boolean> {
    return !this.closed;
  }

  async acquire(kind: RenderSource['kind'], clock: RenderClock = 'real', use: PageUse = 'print'): Promise<PageLease> {
    if (this.closed) throw new RendererCrashedError('the renderer is shutting down');
    try {
      const granted: RenderClock = isVirtual(leaseMode(this.path.mode, use)) ? clock : 'real';
      const lane = (kind === 'html' && this.takeIdleLane(granted)) || (await this.openLane(kind, granted));
      return {
        page: lane.page,
        clock: granted,
        release: (renderSucceeded) => this.release(lane, kind, renderSucceeded),
      };
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

  private takeIdleLane(clock: RenderClock): Lane | undefined {
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const lane = this.idle[i]!;
      const isLive = !lane.isDead && !lane.cdp.isClosed && !lane.window.isDestroyed();
      if (isLive && lane.clock !== clock) continue;
      this.idle.splice(i, 1);
      if (isLive) return lane;
      void this.discard(lane);
    }
    return undefined;
  }

  private async openLane(kind: RenderSource['kind'], clock: RenderClock): Promise<Lane> {
    // Idle html lanes hold partitions too: when every partition is taken, the oldest idle lane gives its own back.
    if (!this.partitions.hasFree() && this.idle.length > 0) void this.discard(this.idle.shift()!);
    const partition = await this.partitions.take();
    if (this.closed) {
      await this.partitions.giveBack(partition);
      throw new RendererCrashedError('the renderer is shutting down');
    }
    const window = this.electron.createWindow(renderWindowOptions(partition.name));
    const cdp = new DebuggerSession(window.webContents.debugger);
    // No begin-frame control in Electron: a page on the virtual clock awaits the compositor's frames (virtual-clock.ts).
    const page = new ElectronCdpPage(cdp, window.webContents, { ...lanePageOptions(kind, cdp), frames: { kind: 'compositor' } });
    const lane: Lane = { window, partition, cdp, page, renders: 0, isDead: false, clock };
    this.lanes.add(lane);
    try {
      window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
      applyWindowParity(window.webContents);
      window.webContents.on('render-process-gone', (_event, details) => {
        lane.isDead = true;
        // The render on it ends at once; a crash of its own page's process (Renderer retries it once).
        page.fail(new RendererCrashedError(`the page's renderer process is gone (${details.reason})`, 'page'));
        if (this.closed) return;
        this.restarts++;
        this.options.log.warn({ reason: details.reason }, "a render window's process is gone: its lane is replaced");
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

  private async release(lane: Lane, kind: RenderSource['kind'], renderSucceeded: boolean): Promise<void> {
    lane.renders++;
    if (isLaneReusable(kind, renderSucceeded, lane.renders) && !lane.isDead && !lane.cdp.isClosed && !this.closed && (await tearDownLane(lane.page))) {
      this.idle.push(lane);
    } else {
      await this.discard(lane);
    }
  }

  /** Destroys the lane's window and gives its partition back to the pool, emptied. */
  private async discard(lane: Lane): Promise<void> {
    if (!this.lanes.delete(lane)) return;
    lane.cdp.detach();
    if (!lane.window.isDestroyed()) lane.window.destroy();
    await this.partitions.giveBack(lane.partition);
  }
}
