// Drives one page target over a raw CDP session: loads a render's HTML (written into an empty
// document of a fresh origin, answered from memory through the Fetch domain) or a URL, waits for the requested lifecycle event, applies media,
// waits for a selector, prints. Only the domains it needs are enabled, so a render costs few
// protocol events. Works on any CDP session: headless Chromium or Electron's webContents.

import type { Protocol } from 'puppeteer-core';
import { NavigationError, RenderInputError, RendererCrashedError } from './errors.ts';
import { RENDER_URL_PATTERN, freshDocument, isRenderSiteUrl, type RenderDocument } from './render-document.ts';
import type { AssetResolver, RenderSource, WaitUntil } from './render-source.ts';
import type { CdpSession } from './cdp-session.ts';
import { RequestTracker } from './request-tracker.ts';
import type { FrameSource } from './frame-turn.ts';
import { NETWORK_IDLE_MS, VirtualClock } from './virtual-clock.ts';

/** The lifecycle event each wait starts from; the network-idle ones then wait for a quiet network (request-tracker.ts). */
const LIFECYCLE_EVENT: Record<WaitUntil, string> = {
  load: 'load',
  domcontentloaded: 'DOMContentLoaded',
  networkidle0: 'load',
  networkidle2: 'load',
};

/** Requests allowed in flight during the quiet window of the waits that have one. */
const IN_FLIGHT_ALLOWED: Partial<Record<WaitUntil, number>> = { networkidle0: 0, networkidle2: 2 };

const WAIT_FOR_SELECTOR = `(selector) => new Promise((resolve, reject) => {
  const found = () => { try { return document.querySelector(selector) !== null; } catch (error) { reject(new SyntaxError('invalid selector')); return true; } };
  if (found()) return resolve(true);
  const observer = new MutationObserver(() => { if (found()) { observer.disconnect(); resolve(true); } });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})`;

const WAIT_FOR_FUNCTION_POLL_MS = 100;

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
  /** The document a navigation in progress asks for, answered from memory. */
  private pending: RenderDocument | undefined;
  private prepared: PreparedDocument | undefined;
  private clock: RenderClock = 'real';
  private readonly virtualClock: VirtualClock;
  /** The current html render's assets, by its origin: kept until the next load, as fonts may be asked for while printing. */
  private assets: { origin: string; resolve: AssetResolver } | undefined;
  private media: string | undefined;
  // Events of a navigation can arrive before Page.navigate answers with its loaderId, so both
  // are recorded per loader and read once the loaderId is known.
  private readonly lifecycle = new Map<string, Set<string>>();
  private readonly documentStatus = new Map<string, number>();
  private readonly documentRedirects: { requestId: string; url: string }[] = [];
  private loaderId: string | undefined;
  /**
   * The loader HTML was just written into, until the written document's 'init': the empty
   * document's own late events (its DOMContentLoaded and load) carry the same loaderId.
   */
  private writtenLoader: string | undefined;
  private lifecycleWaiter: (() => void) | undefined;
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
    this.session.on('Fetch.requestPaused', (event: Protocol.Fetch.RequestPausedEvent) => void this.answer(event));
    this.session.on('Page.lifecycleEvent', (event: Protocol.Page.LifecycleEventEvent) => this.onLifecycle(event));
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
    if (this.options.trackDocumentStatus) {
      this.session.on('Network.responseReceived', (event: Protocol.Network.ResponseReceivedEvent) => {
        if (event.type === 'Document') this.documentStatus.set(event.requestId, event.response.status);
      });
      this.session.on('Network.requestWillBeSent', (event: Protocol.Network.RequestWillBeSentEvent) => {
        if (event.type === 'Document' && event.redirectResponse) this.documentRedirects.push({ requestId: event.requestId, url: event.request.url });
      });
    }
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
    this.documentStatus.clear();
    this.documentRedirects.length = 0;
    this.clock = waitUntil === 'networkidle0' ? clock : 'real';
    this.virtualClock.notes();
    if (source.kind === 'html' && !this.prepared) await this.clear();
    // Held before the content exists: a clock already running would spend the window before the
    // page's timers are even set (docs/decisions.md#networkidle0-on-a-virtual-clock-by-default-wait_clock-virtual).
    const virtual = this.clock === 'virtual';
    const allowed = IN_FLIGHT_ALLOWED[waitUntil];
    const requests = allowed === undefined ? undefined : new RequestTracker(this.session, virtual ? this.virtualClock : undefined);
    try {
      if (virtual) await this.virtualClock.hold(true);
      const wanted = LIFECYCLE_EVENT[waitUntil];
      let reached: Promise<void>;
      if (source.kind === 'html') {
        ({ reached } = await this.write(source.html, wanted, source.assets));
      } else {
        const started = await this.navigate(source.url, wanted);
        if (started.navigation.errorText) {
          await this.checkRedirects(source, started.navigation.loaderId);
          await this.checkUnsafeRedirect(source, started.navigation.errorText);
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
    await this.checkRedirects(source, this.loaderId);
    return { status: this.documentStatus.get(this.loaderId!) };
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
    this.assets = undefined;
    const document = freshDocument();
    this.pending = document;
    try {
      // Committed ('init', the new document's first lifecycle event) is enough: the previous
      // document is gone then. The empty document's load may wait for a page clock that is held
      // (a virtual lane between renders), and the written HTML replaces it anyway.
      const { navigation, reached } = await this.navigate(document.url, 'init');
      if (navigation.errorText) throw new NavigationError(`the page could not be cleared: ${navigation.errorText}`);
      await reached;
      await this.untilCommittedInBrowser(document.url);
      await this.options.onFreshDocument?.();
      this.prepared = { frameId: navigation.frameId, loaderId: this.loaderId!, origin: new URL(document.url).origin };
    } finally {
      this.pending = undefined;
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
    this.assets = assets ? { origin, resolve: assets } : undefined;
    this.loaderId = loaderId;
    // Only what the written document fires counts. clear() waited for the empty document's
    // commit, not its load: its DOMContentLoaded and load may still be on their way, under the
    // same loader, and would pass for the written document's (a 'load' wait then printed before
    // its images had loaded). The write starts the written document's events with an 'init'
    // (document.open); what comes before it is the empty document's.
    this.lifecycle.set(loaderId, new Set());
    this.writtenLoader = loaderId;
    const reached = this.lifecycleReached(wanted);
    await this.session.send('Page.setDocumentContent', { frameId, html });
    return { reached };
  }

  /** Starts a navigation; `reached` resolves when its document fires the wanted lifecycle event. */
  private async navigate(url: string, wanted: string): Promise<{ navigation: Protocol.Page.NavigateResponse; reached: Promise<void> }> {
    this.lifecycle.clear();
    this.loaderId = undefined;
    this.writtenLoader = undefined;
    const reached = this.lifecycleReached(wanted);
    const navigation = (await this.session.send('Page.navigate', { url })) as Protocol.Page.NavigateResponse;
    if (!navigation.errorText) {
      this.loaderId = navigation.loaderId ?? '';
      this.lifecycleWaiter?.();
    }
    return { navigation, reached };
  }

  /** Resolves once the current loader's document fired the wanted lifecycle event. */
  private lifecycleReached(wanted: string): Promise<void> {
    return new Promise<void>((resolve) => {
      this.lifecycleWaiter = () => {
        if (this.loaderId && this.lifecycle.get(this.loaderId)?.has(wanted)) resolve();
      };
      this.lifecycleWaiter();
    });
  }

  /**
   * Runs the source's checkRedirect on every redirect target of the top-level document (url
   * renders only), so a hop the network guard refused fails as that refusal, not as a load error.
   */
  private async checkRedirects(source: RenderSource, loaderId: string | undefined): Promise<void> {
    if (source.kind !== 'url' || !source.checkRedirect) return;
    // Without a loaderId the navigation failed before committing: every hop so far was its own.
    const hops = this.documentRedirects.filter((hop) => !loaderId || hop.requestId === loaderId);
    for (const hop of hops) await source.checkRedirect(hop.url);
  }

  /** Chromium refuses a redirect to file:, chrome: and the like itself, before any event names the target. */
  private async checkUnsafeRedirect(source: RenderSource, errorText: string): Promise<void> {
    if (source.kind === 'url' && source.checkRedirect && errorText === 'net::ERR_UNSAFE_REDIRECT') await source.checkRedirect('unsafe-redirect:');
  }

  async emulateMedia(media: 'print' | 'screen'): Promise<void> {
    if (this.media === media) return;
    await this.session.send('Emulation.setEmulatedMedia', { media });
    this.media = media;
  }

  /** Resolves when the selector matches; throws RenderInputError for an invalid selector. In virtual time the page's clock runs meanwhile. */
  async waitForSelector(selector: string): Promise<void> {
    const evaluated = this.session.send('Runtime.evaluate', {
      expression: `(${WAIT_FOR_SELECTOR})(${JSON.stringify(selector)})`,
      awaitPromise: true,
      returnByValue: true,
    }) as Promise<Protocol.Runtime.EvaluateResponse>;
    const result = this.clock === 'virtual' ? await this.virtualClock.runUntil(evaluated) : await evaluated;
    if (result.exceptionDetails) {
      throw new RenderInputError('options.wait_for', `options.wait_for is not a valid CSS selector: ${selector}`);
    }
  }

  /**
   * Resolves when the expression is truthy (a promise is awaited), checked from here every 100 ms
   * of the page's clock (wait(): on a virtual clock its timers run between checks) until
   * `deadline` (epoch ms, wall clock).
   * Throws RenderInputError when it does not compile or throws.
   */
  async waitForFunction(expression: string, deadline: number): Promise<void> {
    while (Date.now() < deadline) {
      const evaluated = this.session.send('Runtime.evaluate', {
        expression: `(async () => Boolean(await (${expression}\n)))()`,
        awaitPromise: true,
        returnByValue: true,
      }) as Promise<Protocol.Runtime.EvaluateResponse>;
      // A promise the expression awaits may need the page's timers: on a virtual clock they run meanwhile.
      const result = this.clock === 'virtual' ? await this.virtualClock.runUntil(evaluated) : await evaluated;
      if (result.exceptionDetails) {
        // "SyntaxError: Unexpected token" as "threw a SyntaxError (Unexpected token)": no stack-like text in an API error.
        const first = result.exceptionDetails.exception?.description?.split('\n')[0] ?? result.exceptionDetails.text;
        const [, name = 'error', message = first] = /^(\w+): (.*)$/.exec(first) ?? [];
        throw new RenderInputError('options.wait_for_function', `options.wait_for_function threw a ${name} in the page (${message})`);
      }
      if (result.result.value === true) return;
      await this.wait(WAIT_FOR_FUNCTION_POLL_MS);
    }
  }

  /**
   * Evaluates an expression in the page (a promise is awaited) and returns its JSON value; on a
   * virtual clock the page's timers run meanwhile. Throws with the page's own message when it throws.
   */
  async evaluate<T>(expression: string): Promise<T> {
    const evaluated = this.session.send('Runtime.evaluate', {
      expression,
      awaitPromise: true,
      returnByValue: true,
    }) as Promise<Protocol.Runtime.EvaluateResponse>;
    const result = this.clock === 'virtual' ? await this.virtualClock.runUntil(evaluated) : await evaluated;
    if (result.exceptionDetails) throw new Error(result.exceptionDetails.exception?.description?.split('\n')[0] ?? result.exceptionDetails.text);
    return result.result.value as T;
  }

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

  /** A screenshot of the page as it stands: on a begin-frame clock its frame is drawn on request (virtual-clock.ts drawWhile). */
  capture<T>(capturing: Promise<T>): Promise<T> {
    return this.clock === 'virtual' ? this.virtualClock.drawWhile(capturing) : capturing;
  }

  /** Printing on a virtual clock without begin frames needs the clock to run meanwhile (virtual-clock.ts stepWhile). */
  protected whilePrinting<T>(printing: Promise<T>): Promise<T> {
    return this.clock === 'virtual' ? this.virtualClock.stepWhile(printing) : printing;
  }

  private onLifecycle(event: Protocol.Page.LifecycleEventEvent): void {
    if (event.loaderId === this.writtenLoader) {
      if (event.name !== 'init') return;
      this.writtenLoader = undefined;
    }
    const names = this.lifecycle.get(event.loaderId) ?? new Set<string>();
    if (event.name === 'init') names.clear();
    names.add(event.name);
    this.lifecycle.set(event.loaderId, names);
    this.lifecycleWaiter?.();
  }

  /** Answers requests to the render site: the empty document, the render's assets, and 404 for anything else. */
  private async answer(event: Protocol.Fetch.RequestPausedEvent): Promise<void> {
    // Other requests are paused only while origin-credentials.ts intercepts them, and it answers them.
    if (!isRenderSiteUrl(event.request.url)) return;
    const pending = this.pending;
    try {
      if (pending && event.request.url === pending.url && event.resourceType === 'Document') {
        await this.fulfill(event.requestId, 200, 'text/html; charset=utf-8', pending.body);
      } else if (this.assets && new URL(event.request.url).origin === this.assets.origin) {
        const asset = await this.assets.resolve(assetNameOf(event.request.url)).catch(() => undefined);
        if (asset) await this.fulfill(event.requestId, 200, asset.contentType, asset.body);
        else await this.fulfill(event.requestId, 404, 'text/plain', 'not found');
      } else {
        await this.fulfill(event.requestId, 404, 'text/plain', 'not found');
      }
    } catch {
      // The page went away while we answered; the render's own error path handles it.
    }
  }

  private fulfill(requestId: string, status: number, contentType: string, body: string | Uint8Array): Promise<unknown> {
    return this.session.send('Fetch.fulfillRequest', {
      requestId,
      responseCode: status,
      responseHeaders: [
        { name: 'Content-Type', value: contentType },
        { name: 'Cache-Control', value: 'no-store' },
      ],
      body: (typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength)).toString('base64'),
    });
  }
}

/** The relative name a same-origin request asks for ("fonts/Inter.woff2"); "" when it cannot be decoded. */
function assetNameOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.slice(1));
  } catch {
    return '';
  }
}
