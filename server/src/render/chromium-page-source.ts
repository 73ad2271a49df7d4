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
import type { BrowserGeneration, BrowserHost } from './browser-host.ts';
import { CdpPage, type RenderClock } from './cdp-page.ts';
import { RendererCrashedError } from './errors.ts';
import { isLaneReusable, lanePageOptions, tearDownLane } from './lane-policy.ts';
import type { PageLease, PageSource } from './page-source.ts';
import type { RenderPath } from './render-path.ts';
import type { RenderSource } from './render-source.ts';
import { settleWithin } from './settle-within.ts';

interface Lane {
  generation: BrowserGeneration;
  context: BrowserContext;
  targetId: string;
  browserSession: CDPSession;
  page: CdpPage;
  renders: number;
  clock: RenderClock;
}

export class ChromiumPageSource implements PageSource {
  private readonly idle: Lane[] = [];
  private readonly browserSessions = new WeakMap<BrowserGeneration, Promise<CDPSession>>();

  constructor(private readonly host: BrowserHost) {}

  /** Virtual time needs frames drawn on request, which only the headless shell offers (virtual-clock.ts). */
  get renderPath(): RenderPath {
    return this.host.drawsFramesOnRequest
      ? { mode: 'virtual-begin-frame', reason: 'headless shell', disabled: [], probeMs: 0 }
      : { mode: 'real', reason: 'no begin-frame control', disabled: [], probeMs: 0 };
  }

  get version(): string {
    return this.host.version;
  }

  get restarts(): number {
    return this.host.restarts;
  }

  probe(): Promise<boolean> {
    return this.host.probe();
  }

  close(): Promise<void> {
    this.idle.length = 0;
    return this.host.close();
  }

  async acquire(kind: RenderSource['kind'], clock: RenderClock = 'real'): Promise<PageLease> {
    const generation = await this.host.generation();
    generation.inFlight++;
    try {
      const lane = (kind === 'html' && this.takeIdleLane(generation, clock)) || (await this.openLane(generation, kind, clock));
      return { page: lane.page, release: (reusable) => this.release(lane, kind, reusable) };
    } catch (error) {
      this.host.leave(generation);
      throw new RendererCrashedError(`could not open a page: ${(error as Error).message}`);
    }
  }

  /** An idle lane on this clock (a page once in virtual time stays in it); lanes of a dead or retired browser are closed on the way. */
  private takeIdleLane(generation: BrowserGeneration, clock: RenderClock): Lane | undefined {
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const lane = this.idle[i]!;
      if (lane.generation === generation && generation.isAlive) {
        if (lane.clock !== clock) continue;
        this.idle.splice(i, 1);
        return lane;
      }
      this.idle.splice(i, 1);
      void lane.context.close().catch(() => undefined);
    }
    return undefined;
  }

  private async openLane(generation: BrowserGeneration, kind: RenderSource['kind'], clock: RenderClock): Promise<Lane> {
    const context = await generation.browser.createBrowserContext();
    try {
      const browserSession = await this.browserSession(generation);
      await browserSession.send('Browser.setDownloadBehavior', { behavior: 'deny', browserContextId: context.id });
      const [target, { targetId }] = await Promise.all([
        context.waitForTarget((candidate) => candidate.type() === 'page'),
        // A page on the virtual clock draws the frames its clock asks for, and no others (virtual-clock.ts).
        browserSession.send('Target.createTarget', { url: 'about:blank', browserContextId: context.id, enableBeginFrameControl: clock === 'virtual' }),
      ]);
      const session = await target.createCDPSession();
      const page = new CdpPage(session, lanePageOptions(kind, session));
      await page.init();
      return { generation, context, targetId, browserSession, page, renders: 0, clock };
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
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
    lane.renders++;
    // Counted as the render is handed back, before its teardown: the browser's recycling must not
    // depend on whether the next render started before this teardown ended.
    this.host.countRender(generation);
    try {
      const reusable = isLaneReusable(kind, renderSucceeded, lane.renders) && !generation.retired && generation.isAlive;
      const [tornDown] = reusable ? await Promise.all([tearDownLane(lane.page), settleWithin(closeOtherPages(lane), 2000)]) : [false];
      if (tornDown && generation.isAlive) {
        this.idle.push(lane);
      } else {
        await lane.context.close().catch(() => undefined);
      }
    } finally {
      this.host.leave(generation);
    }
  }
}

/**
 * Closes any window the render opened that is still there (browser-host.ts closes popups shortly
 * after they appear; this makes sure none outlives the render on a reused context). The local
 * target list makes the common case free; closing goes by target id over CDP, bounded in time.
 */
async function closeOtherPages(lane: Lane): Promise<void> {
  if (lane.context.targets().filter((target) => target.type() === 'page').length <= 1) return;
  const { targetInfos } = (await lane.browserSession.send('Target.getTargets')) as Protocol.Target.GetTargetsResponse;
  const others = targetInfos.filter((info) => info.type === 'page' && info.browserContextId === lane.context.id && info.targetId !== lane.targetId);
  await Promise.all(others.map((info) => lane.browserSession.send('Target.closeTarget', { targetId: info.targetId }).catch(() => undefined)));
}
