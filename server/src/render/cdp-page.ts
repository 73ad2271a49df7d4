// Drives one page target over a raw CDP session: loads a render's HTML (written into an empty
// document of a fresh origin, answered from memory by render-site-responder.ts) or a URL, waits for
// the requested lifecycle event (page-lifecycle.ts), applies media, runs the waits (page-waits.ts),
// prints. Only the domains it needs are enabled, so a render costs few protocol events. Works on
// any CDP session: headless Chromium or Electron's webContents.

import type { Protocol } from 'puppeteer-core';
import { NavigationError, RendererCrashedError } from './errors.ts';
import { RENDER_URL_PATTERN, freshDocument } from './render-document.ts';
import type { AssetResolver, RenderSource, WaitUntil } from './render-source.ts';
import type { CdpSession } from './cdp-session.ts';
import { RequestTracker } from './request-tracker.ts';
import type { FrameSource } from './frame-turn.ts';
import { VirtualClock } from './virtual-clock.ts';
import { NETWORK_IDLE_MS } from './virtual-clock-steps.ts';
import { RenderSiteResponder } from './render-site-responder.ts';
import { IN_FLIGHT_ALLOWED, LIFECYCLE_EVENT, PageLifecycle } from './page-lifecycle.ts';
import { DocumentResponses, checkUnsafeRedirect } from './document-responses.ts';
import { evaluateOnClock, untilFunctionTruthy, untilSelectorMatches } from './page-waits.ts';

export interface CdpPageOptions {
  /**
   * Runs once clear() replaced the document with the next render's empty one: nothing of the
   * previous render runs any more, nothing of the next has run yet.
   */
  onFreshDocument?: () => Promise<void>;
  /** Report the top-level response status (needs the Network domain: only for url renders). */
  trackDocumentStatus?: boolean;
  /** How the page's virtual clock gets its frames (virtual-clock.ts); begin frames on a turn of its own when not given. */
  frames?: FrameSource;
}

/** An expression evaluated in the page just before printing, and what to do with its value. */
export interface PageInspection {
  expression: string;
  onValue(value: unknown): void;
}

/**
 * The clock a render's page runs on. 'virtual' (virtual-clock.ts): Chromium's virtual time, which
 * jumps to the next due timer and stops while fetches are pending; a page once on it keeps it, so
 * a lane is one or the other.
 */
export type RenderClock = 'real' | 'virtual';

/** The empty document of a fresh origin that clear() left, which the next html render is written into. */
interface PreparedDocument {
  frameId: string;
  loaderId: string;
  origin: string;
}

export class CdpPage {
  private readonly site: RenderSiteResponder;
  private readonly lifecycle = new PageLifecycle();
  private readonly documents = new DocumentResponses();
  private prepared: PreparedDocument | undefined;
  private clock: RenderClock = 'real';
  private readonly virtualClock: VirtualClock;
  private media: string | undefined;
  private rejectFailed: ((error: Error) => void) | undefined;
  /**
   * Rejects with RendererCrashedError once the page's renderer crashed (scope 'page') or its
   * source declared it gone (fail(): the browser died); a render races its work against it, so a
   * wait for an event that will never come ends at once instead of at the render's timeout.
   */
  readonly failed: Promise<never>;

  constructor(
    /** Also used by origin-credentials.ts, which intercepts the url lane's own requests. */
    readonly session: CdpSession,
    private readonly options: CdpPageOptions = {},
  ) {
    this.virtualClock = new VirtualClock(session, options.frames);
    this.site = new RenderSiteResponder(session);
    this.failed = new Promise<never>((_, reject) => {
      this.rejectFailed = reject;
    });
    this.failed.catch(() => undefined);
  }

  /** Ends whatever the page is doing with this error (the first one counts). */
  fail(error: RendererCrashedError): void {
    this.rejectFailed?.(error);
    this.rejectFailed = undefined;
  }

  /** Enables what the page needs; call once before the first load. */
  async init(): Promise<void> {
    this.session.on('Fetch.requestPaused', (event: Protocol.Fetch.RequestPausedEvent) => void this.site.answer(event));
    this.session.on('Page.lifecycleEvent', (event: Protocol.Page.LifecycleEventEvent) => this.lifecycle.onEvent(event));
    this.session.on('Inspector.targetCrashed', () => this.fail(new RendererCrashedError("the page's renderer process crashed", 'page')));
    // Dialogs would hold the render until its timeout.
    this.session.on('Page.javascriptDialogOpening', () => void this.session.send('Page.handleJavaScriptDialog', { accept: false }).catch(() => undefined));
    const steps: Promise<unknown>[] = [
      this.session.send('Page.enable'),
      // For Inspector.targetCrashed; an engine without the domain reports crashes its own way.
      this.session.send('Inspector.enable').catch(() => undefined),
      this.session.send('Page.setLifecycleEventsEnabled', { enabled: true }),
      this.session.send('Fetch.enable', { patterns: [{ urlPattern: RENDER_URL_PATTERN, requestStage: 'Request' }] }),
      // Renders share a site, so they would share the HTTP cache: never use it. The setting only
      // applies while the Network domain is enabled (no bodies are buffered).
      this.session
        .send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 })
        .then(() => this.session.send('Network.setCacheDisabled', { cacheDisabled: true })),
    ];
    if (this.options.trackDocumentStatus) this.documents.listen(this.session);
    await Promise.all(steps);
  }

  /**
   * Loads HTML (written into the empty document of a fresh origin that clear() left, preparing one
   * first if needed), or navigates to a URL; resolves when waitUntil is reached. With clock
   * 'virtual' (networkidle0 only, see RenderClock) the page's clock is held while the content
   * starts loading, then runs until the network-idle window passed on it, then is held again.
   * onReached runs when the lifecycle event fired, before any network-idle wait.
   */
  async load(source: RenderSource, waitUntil: WaitUntil, clock: RenderClock = 'real', onReached?: () => void): Promise<{ status?: number }> {
    this.documents.reset();
    this.clock = waitUntil === 'networkidle0' ? clock : 'real';
    this.virtualClock.notes();
    if (source.kind === 'html' && !this.prepared) await this.clear();
    // Held before the content exists: a clock already running would spend the window before the
    // page's timers are even set (docs/decisions.md#networkidle0-on-a-virtual-clock-by-default-wait_clock-virtual).
    const virtual = this.clock === 'virtual';
    const allowed = IN_FLIGHT_ALLOWED[waitUntil];
    const requests = allowed === undefined ? undefined : new RequestTracker(this.session, virtual ? this.virtualClock : undefined);
    try {
      if (virtual) {
        await this.virtualClock.hold(true);
        // The page reads the time of this render, not where the lane's clock stopped.
        await this.virtualClock.startAtWallTime();
      }
      const wanted = LIFECYCLE_EVENT[waitUntil];
      let reached: Promise<void>;
      if (source.kind === 'html') {
        ({ reached } = await this.write(source.html, wanted, source.assets));
      } else {
        const started = await this.navigate(source.url, wanted);
        if (started.navigation.errorText) {
          await this.documents.checkRedirects(source, started.navigation.loaderId);
          await checkUnsafeRedirect(source, started.navigation.errorText);
          throw new NavigationError(started.navigation.errorText.replace(/^net::/, ''));
        }
        reached = started.reached;
      }
      // The lifecycle event itself, before the network-idle window: a receipt's load and idle times.
      if (onReached) reached = reached.then(onReached);
      if (virtual) {
        await this.virtualClock.waitForNetworkIdle(requests!, reached);
      } else {
        await reached;
        await requests?.quiet(NETWORK_IDLE_MS, allowed!);
      }
    } finally {
      requests?.stop();
    }
    await this.documents.checkRedirects(source, this.lifecycle.loaderId);
    return { status: this.documents.statusOf(this.lifecycle.loaderId!) };
  }

  /** How far the page's clock stands ahead of the wall clock, in ms (virtual-clock.ts lead()). */
  clockLead(): Promise<number> {
    return this.virtualClock.lead();
  }

  /** Why the page's virtual clock was not exact since the last call (virtual-clock.ts notes()): receipt warnings. */
  clockNotes(): string[] {
    return this.virtualClock.notes();
  }

  /**
   * Ends the current document (lane-policy.ts tearDownLane) by navigating to the next render's
   * empty document on a fresh origin, which unloads the current one with its timers, pending
   * callbacks, workers and connections; then empties what the browsing context keeps across
   * documents (onFreshDocument).
   */
  async clear(): Promise<void> {
    this.prepared = undefined;
    this.site.assets = undefined;
    const document = freshDocument();
    this.site.document = document;
    try {
      // Committed ('init', the new document's first lifecycle event) is enough: the previous
      // document is gone then. The empty document's load may wait for a page clock that is held
      // (a virtual lane between renders), and the written HTML replaces it anyway.
      const { navigation, reached } = await this.navigate(document.url, 'init');
      if (navigation.errorText) throw new NavigationError(`the page could not be cleared: ${navigation.errorText}`);
      await reached;
      await this.untilCommittedInBrowser(document.url);
      await this.options.onFreshDocument?.();
      this.prepared = { frameId: navigation.frameId, loaderId: this.lifecycle.loaderId!, origin: new URL(document.url).origin };
    } finally {
      this.site.document = undefined;
    }
  }

  /**
   * Resolves once the browser's session history has the document as its current entry. The
   * document's 'init' comes from its renderer, a little before the browser records the commit;
   * a history reset in between would keep the previous render's entry. The teardown's time
   * limit (lane-policy.ts) bounds the wait.
   */
  private async untilCommittedInBrowser(url: string): Promise<void> {
    for (;;) {
      const { currentIndex, entries } = (await this.session.send('Page.getNavigationHistory')) as Protocol.Page.GetNavigationHistoryResponse;
      if (entries[currentIndex]?.url === url) return;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  /**
   * Writes HTML into the prepared document (Page.setDocumentContent: document.open, write, close),
   * which starts its lifecycle over under the same loader; `reached` as for navigate.
   */
  private async write(html: string, wanted: string, assets: AssetResolver | undefined): Promise<{ reached: Promise<void> }> {
    const { frameId, loaderId, origin } = this.prepared!;
    this.prepared = undefined;
    this.site.assets = assets ? { origin, resolve: assets } : undefined;
    // Only what the written document fires counts (page-lifecycle.ts writing).
    const reached = this.lifecycle.writing(loaderId, wanted);
    await this.session.send('Page.setDocumentContent', { frameId, html });
    return { reached };
  }

  /** Starts a navigation; `reached` resolves when its document fires the wanted lifecycle event. */
  private async navigate(url: string, wanted: string): Promise<{ navigation: Protocol.Page.NavigateResponse; reached: Promise<void> }> {
    const reached = this.lifecycle.navigating(wanted);
    const navigation = (await this.session.send('Page.navigate', { url })) as Protocol.Page.NavigateResponse;
    if (!navigation.errorText) this.lifecycle.committed(navigation.loaderId ?? '');
    return { navigation, reached };
  }

  async emulateMedia(media: 'print' | 'screen'): Promise<void> {
    if (this.media === media) return;
    await this.session.send('Emulation.setEmulatedMedia', { media });
    this.media = media;
  }

  /** Resolves when the selector matches; throws RenderInputError for an invalid selector. In virtual time the page's clock runs meanwhile. */
  waitForSelector(selector: string): Promise<void> {
    return untilSelectorMatches(this.session, this.onClock, selector);
  }

  /**
   * Resolves true when the expression is truthy (a promise is awaited), checked from here every 100 ms
   * of the page's clock (wait(): on a virtual clock its timers run between checks), or false at
   * `deadline` (epoch ms, wall clock).
   * Throws RenderInputError when it does not compile or throws.
   */
  waitForFunction(expression: string, deadline: number): Promise<boolean> {
    return untilFunctionTruthy(this.session, this.onClock, (ms) => this.wait(ms), expression, deadline);
  }

  /**
   * Evaluates an expression in the page (a promise is awaited) and returns its JSON value; on a
   * virtual clock the page's timers run meanwhile. Throws with the page's own message when it throws.
   */
  async evaluate<T>(expression: string): Promise<T> {
    const result = await evaluateOnClock(this.session, this.onClock, expression);
    if (result.exceptionDetails) throw new Error(result.exceptionDetails.exception?.description?.split('\n')[0] ?? result.exceptionDetails.text);
    return result.result.value as T;
  }

  /** Runs the work to its end; on a virtual clock the page's timers run meanwhile. */
  private readonly onClock = <T>(work: Promise<T>): Promise<T> => (this.clock === 'virtual' ? this.virtualClock.runUntil(work) : work);

  /** Lets ms pass before printing: on the wall clock, or on the page's virtual clock (its timers due by then run at once). */
  async wait(ms: number): Promise<void> {
    if (this.clock === 'virtual') return this.virtualClock.runFor(ms);
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /**
   * Prints the current document; waits for web fonts first, as a browser's print does. `inspect`
   * (a receipt's look at the page, render-trace.ts) runs in the same evaluation, once fonts are ready.
   */
  async print(params: Protocol.Page.PrintToPDFRequest, inspect?: PageInspection): Promise<Uint8Array> {
    await this.fontsReady(inspect);
    const { data } = await this.whilePrinting(this.session.send('Page.printToPDF', params) as Promise<Protocol.Page.PrintToPDFResponse>);
    return Buffer.from(data, 'base64');
  }

  /** Waits for web fonts, as a browser's print does, running the inspection in the same evaluation. */
  protected async fontsReady(inspect?: PageInspection): Promise<void> {
    const expression = inspect ? `document.fonts.ready.then(() => ${inspect.expression})` : 'document.fonts.ready.then(() => true)';
    const ready = (await this.session.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true })) as Protocol.Runtime.EvaluateResponse;
    inspect?.onValue(ready.result.value);
  }

  /** A screenshot as the page stands: on a virtual clock only with begin frames, its frame drawn on request (drawWhile; render-path.ts leaseMode). */
  capture<T>(capturing: Promise<T>): Promise<T> {
    return this.clock === 'virtual' ? this.virtualClock.drawWhile(capturing) : capturing;
  }

  /** Printing on a virtual clock without begin frames needs the clock to run meanwhile (virtual-clock.ts stepWhile). */
  protected whilePrinting<T>(printing: Promise<T>): Promise<T> {
    return this.clock === 'virtual' ? this.virtualClock.stepWhile(printing) : printing;
  }
}
