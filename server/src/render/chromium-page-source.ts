// PageSource on the headless Chromium of BrowserHost.
//
// Isolation design (measured with bench/; docs/decisions.md#a-fresh-origin-per-render-on-a-reused-lane):
// an `html` render does not get a new browser context (a new renderer process, ~3x the CPU of the render itself). Instead each worker
// keeps one incognito context and page ("lane"), and every render gets a fresh origin under one
// site (render-document.ts): the lane's teardown navigates to the next render's empty document on
// a new origin, and the render writes its HTML into it. That gives each render a new window, realm
// and origin-keyed storage while reusing the renderer process. What such navigations would still
// share is wiped or never kept:
// - the document itself: replaced when the render hands the lane back, so none of its timers,
//   workers or pending work runs while the lane waits or serves the next render; a page that will
//   not let go of its renderer loses its lane (lane-policy.ts tearDownLane);
// - cookies (a page may set them on the shared parent domain or on third parties), window.name and
//   session history, which a tab keeps across documents: emptied once the empty document is in
//   place, after the previous document is gone and before anything of the next render runs;
// - the HTTP cache: disabled for the page;
// - everything else origin-keyed is unreachable from the next origin, and the lane's context is
//   replaced every LANE_RENDERS renders so it does not accumulate.
// A `url` render loads a document that is not ours to prepare, so it gets a fresh context, closed after.
// These rules live in lane-policy.ts, shared with the desktop app's Electron page source.
//
// Cost (bench/experiments/teardown.ts, nav-variants.ts): one navigation per render (7-10 ms of
// Chromium CPU on a raw target), done by the teardown, and Page.setDocumentContent (~1-2 ms) for
// the render itself; a separate teardown navigation (about:blank) and a gate request per render
// cost another 10-15 ms. setContent into the previous render's document keeps its window (globals,
// timers and `let` bindings of the last render) and so is not isolation.
// Lanes use raw CDP targets, not puppeteer Pages: the Page wrapper's per-navigation bookkeeping
// (utility worlds, frame tracking) costs another 8-14 ms.

import type { BrowserContext, CDPSession, Protocol } from 'puppeteer-core';
import { pino } from 'pino';
import type { Logger } from '../logger.ts';
import type { BrowserGeneration, BrowserHost } from './browser-host.ts';
import { CdpPage, type RenderClock } from './cdp-page.ts';
import { RendererCrashedError } from './errors.ts';
import { isLaneReusable, lanePageOptions, tearDownLane } from './lane-policy.ts';
import type { PageLease, PageSource } from './page-source.ts';
import { checkFramesOnVirtualClock, probeRenderPath, type RenderPathProbe } from './render-path-probe.ts';
import { RenderPathBreaker } from './render-path-breaker.ts';
import { isVirtual, leaseMode, type PageUse, type RenderPath, type RenderPathMode, UNPROBED_PATH } from './render-path.ts';
import type { RenderSource } from './render-source.ts';
import { settleWithin } from './settle-within.ts';
import { type FrameSource, FrameTurn } from './frame-turn.ts';

interface Lane {
  generation: BrowserGeneration;
  context: BrowserContext;
  targetId: string;
  browserSession: CDPSession;
  page: CdpPage;
  renders: number;
  /** The path its page was made for ('real': the wall clock only); a lane keeps it. */
  mode: RenderPathMode;
}

export interface ChromiumPageSourceOptions {
  log: Logger;
  /** A launch chose a path below the best one (render-path.ts), switched off by the probe or the breaker. */
  onRenderPathFallback?: (mode: RenderPathMode, by: 'probe' | 'breaker') => void;
  /** The crash breaker; one of its own when not given. */
  breaker?: RenderPathBreaker;
}

export class ChromiumPageSource implements PageSource {
  private readonly idle: Lane[] = [];
  private readonly browserSessions = new WeakMap<BrowserGeneration, Promise<CDPSession>>();
  /** Each browser's render path, probed once at its launch. */
  private readonly paths = new WeakMap<BrowserGeneration, Promise<RenderPath>>();
  /** Each browser's one begin frame at a time (virtual-clock.ts FrameTurn). */
  private readonly frameTurns = new WeakMap<BrowserGeneration, FrameTurn>();
  /** Lanes leased out, so a browser crash can end their renders at once and be counted against their modes. */
  private readonly leased = new Set<Lane>();
  private readonly breaker: RenderPathBreaker;
  private current: RenderPath = UNPROBED_PATH;
  private lastLogged = '';
  private started: Promise<void> | undefined;

  constructor(
    private readonly host: BrowserHost,
    private readonly options: ChromiumPageSourceOptions = { log: silentLog() },
  ) {
    this.breaker = options.breaker ?? new RenderPathBreaker();
    host.watch({ launched: (generation) => void this.pathOf(generation), crashed: (generation) => this.onCrash(generation) });
  }

  /** The path default renders take on the current browser (render-path.ts). */
  get renderPath(): RenderPath {
    return this.current;
  }

  get version(): string {
    return this.host.version;
  }

  get restarts(): number {
    return this.host.restarts;
  }

  /** Launches the browser and waits for its render path to be chosen. */
  start(): Promise<void> {
    this.started ??= (async () => {
      await this.host.start();
      await this.pathOf(await this.host.generation());
    })();
    return this.started;
  }

  probe(): Promise<boolean> {
    return this.host.probe();
  }

  close(): Promise<void> {
    this.idle.length = 0;
    return this.host.close();
  }

  async acquire(kind: RenderSource['kind'], clock: RenderClock = 'real', use: PageUse = 'print'): Promise<PageLease> {
    const generation = await this.host.generation();
    generation.inFlight++;
    try {
      const mode = clock === 'virtual' ? leaseMode((await this.pathOf(generation)).mode, use) : 'real';
      const lane = (kind === 'html' && this.takeIdleLane(generation, mode)) || (await this.openLane(generation, kind, mode));
      this.leased.add(lane);
      return { page: lane.page, clock: isVirtual(mode) ? clock : 'real', release: (reusable) => this.release(lane, kind, reusable) };
    } catch (error) {
      this.host.leave(generation);
      if (error instanceof RendererCrashedError) throw error;
      throw new RendererCrashedError(`could not open a page: ${(error as Error).message}`);
    }
  }

  /** The path of a browser: probed once, the first mode that passes and the breaker has not switched off. */
  private pathOf(generation: BrowserGeneration): Promise<RenderPath> {
    let path = this.paths.get(generation);
    if (!path) {
      path = this.choosePath(generation);
      this.paths.set(generation, path);
    }
    return path;
  }

  private async choosePath(generation: BrowserGeneration): Promise<RenderPath> {
    const probe: RenderPathProbe = {
      isSwitchedOff: (mode) => this.breaker.reasonOff(generation.version, mode),
      tryMode: (mode) => this.tryMode(generation, mode),
    };
    const path = await probeRenderPath(probe);
    if (generation === this.currentGeneration() || this.current === UNPROBED_PATH) this.adopt(path);
    return path;
  }

  /** Two renders at once of a page whose timer asks for a frame, on lanes of this mode; resolves when both printed what the frame drew. */
  private async tryMode(generation: BrowserGeneration, mode: RenderPathMode): Promise<void> {
    const lanes: Lane[] = [];
    const settle = async (lane: Lane, ok: boolean) => {
      this.leased.delete(lane);
      if (ok && generation.isAlive) this.idle.push(lane);
      else await lane.context.close().catch(() => undefined);
    };
    try {
      const opened = await Promise.allSettled([this.openLane(generation, 'html', mode), this.openLane(generation, 'html', mode)]);
      for (const result of opened) if (result.status === 'fulfilled') lanes.push(result.value);
      for (const lane of lanes) this.leased.add(lane);
      const failed = opened.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
      await Promise.all(lanes.map((lane) => checkFramesOnVirtualClock(lane.page)));
      // Handed back as a render would be: torn down, then idle (the probe warmed two lanes).
      await Promise.all(lanes.map(async (lane) => settle(lane, await tearDownLane(lane.page))));
    } catch (error) {
      await Promise.all(lanes.filter((lane) => this.leased.has(lane)).map((lane) => settle(lane, false)));
      throw error;
    }
  }

  /** A path chosen for the current browser: logged when it changes (once per change, not per launch). */
  private adopt(path: RenderPath): void {
    this.current = path;
    const summary = `${path.mode}: ${path.reason}`;
    if (summary !== this.lastLogged) {
      this.lastLogged = summary;
      const log = path.disabled.length > 0 ? this.options.log.warn.bind(this.options.log) : this.options.log.info.bind(this.options.log);
      log({ mode: path.mode, reason: path.reason, disabled: path.disabled, probeMs: path.probeMs, browser: this.host.version }, 'render path chosen');
    }
    const fallback = path.disabled.at(-1);
    if (fallback) this.options.onRenderPathFallback?.(path.mode, fallback.by);
  }

  /** A browser died: its leased pages fail at once, and the crash counts against the modes they were on. */
  private onCrash(generation: BrowserGeneration): void {
    const modes = new Set<RenderPathMode>();
    for (const lane of this.leased) {
      if (lane.generation !== generation) continue;
      modes.add(lane.mode);
      lane.page.fail(new RendererCrashedError('the browser crashed during the render', 'browser'));
    }
    for (const mode of modes) {
      const reason = this.breaker.noteCrash(generation.version, mode);
      if (reason) this.options.log.error({ mode, reason, browser: generation.version }, 'render path switched off for this browser build: it kept crashing');
    }
  }

  private currentGeneration(): BrowserGeneration | undefined {
    return this.host.currentGeneration;
  }

  /** An idle lane of this mode (a page once in virtual time stays in it); lanes of a dead or retired browser are closed on the way. */
  private takeIdleLane(generation: BrowserGeneration, mode: RenderPathMode): Lane | undefined {
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const lane = this.idle[i]!;
      if (lane.generation === generation && generation.isAlive) {
        if (lane.mode !== mode) continue;
        this.idle.splice(i, 1);
        return lane;
      }
      this.idle.splice(i, 1);
      void lane.context.close().catch(() => undefined);
    }
    return undefined;
  }

  private async openLane(generation: BrowserGeneration, kind: RenderSource['kind'], mode: RenderPathMode): Promise<Lane> {
    const context = await generation.browser.createBrowserContext();
    try {
      const browserSession = await this.browserSession(generation);
      await browserSession.send('Browser.setDownloadBehavior', { behavior: 'deny', browserContextId: context.id });
      const [target, { targetId }] = await Promise.all([
        generation.whileAlive(context.waitForTarget((candidate) => candidate.type() === 'page')),
        // A page on a begin-frame virtual clock draws the frames its clock asks for, and no others (virtual-clock.ts).
        browserSession.send('Target.createTarget', {
          url: 'about:blank',
          browserContextId: context.id,
          enableBeginFrameControl: mode === 'virtual-begin-frame',
        }),
      ]);
      const session = await target.createCDPSession();
      const page = new CdpPage(session, { ...lanePageOptions(kind, session), frames: this.framesFor(generation, mode) });
      await page.init();
      return { generation, context, targetId, browserSession, page, renders: 0, mode };
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  private framesFor(generation: BrowserGeneration, mode: RenderPathMode): FrameSource | undefined {
    if (mode === 'virtual-real-frames') return { kind: 'compositor' };
    if (mode !== 'virtual-begin-frame') return undefined;
    let turn = this.frameTurns.get(generation);
    if (!turn) {
      turn = new FrameTurn();
      this.frameTurns.set(generation, turn);
    }
    return { kind: 'begin-frame', turn };
  }

  private browserSession(generation: BrowserGeneration): Promise<CDPSession> {
    let session = this.browserSessions.get(generation);
    if (!session) {
      session = generation.browser.target().createCDPSession();
      this.browserSessions.set(generation, session);
    }
    return session;
  }

  private async release(lane: Lane, kind: RenderSource['kind'], renderSucceeded: boolean): Promise<void> {
    const { generation } = lane;
    this.leased.delete(lane);
    lane.renders++;
    // Counted as the render is handed back, before its teardown: the browser's recycling must not
    // depend on whether the next render started before this teardown ended.
    this.host.countRender(generation);
    try {
      const reusable = isLaneReusable(kind, renderSucceeded, lane.renders) && !generation.retired && generation.isAlive;
      // Its popups first: one still running could set a cookie after the teardown wiped them.
      if (reusable) await settleWithin(closeOtherPages(lane), 2000);
      const tornDown = reusable && (await tearDownLane(lane.page));
      if (tornDown && generation.isAlive) this.idle.push(lane);
      else await lane.context.close().catch(() => undefined);
    } finally {
      this.host.leave(generation);
    }
  }
}

/**
 * Closes the windows the render opened that are still there (browser-host.ts closePopups), so none
 * outlives it on a reused context. Free in the common case (the local target list); bounded in time.
 */
async function closeOtherPages(lane: Lane): Promise<void> {
  if (lane.context.targets().filter((target) => target.type() === 'page').length <= 1) return;
  const { targetInfos } = (await lane.browserSession.send('Target.getTargets')) as Protocol.Target.GetTargetsResponse;
  const others = targetInfos.filter((info) => info.type === 'page' && info.browserContextId === lane.context.id && info.targetId !== lane.targetId);
  await Promise.all(others.map((info) => lane.browserSession.send('Target.closeTarget', { targetId: info.targetId }).catch(() => undefined)));
}

function silentLog(): Logger {
  return pino({ level: 'silent' });
}
