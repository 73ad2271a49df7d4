// Drives one page target over a raw CDP session: loads a render's document (answered from memory
// through the Fetch domain) or a URL, waits for the requested lifecycle event, applies media,
// waits for a selector, prints. Only the domains it needs are enabled, so a render costs few
// protocol events. Works on any CDP session: headless Chromium or Electron's webContents.

import type { Protocol } from 'puppeteer-core';
import { NavigationError, RenderInputError } from './errors.ts';
import { GATE_SCRIPT, RENDER_URL_PATTERN, isRenderSiteUrl, renderDocument, type RenderDocument } from './render-document.ts';
import type { AssetResolver, RenderSource, WaitUntil } from './page-source.ts';
import { RequestTracker, VirtualClock } from './virtual-clock.ts';

/** The part of a CDP session this module uses (puppeteer's CDPSession has it; so can Electron's debugger). */
export interface CdpSession {
  send(method: string, params?: object): Promise<any>;
  on(event: string, handler: (params: any) => void): void;
  off(event: string, handler: (params: any) => void): void;
}

const LIFECYCLE_EVENT: Record<WaitUntil, string> = {
  load: 'load',
  domcontentloaded: 'DOMContentLoaded',
  networkidle0: 'networkIdle',
  networkidle2: 'networkAlmostIdle',
};

const WAIT_FOR_SELECTOR = `(selector) => new Promise((resolve, reject) => {
  const found = () => { try { return document.querySelector(selector) !== null; } catch (error) { reject(new SyntaxError('invalid selector')); return true; } };
  if (found()) return resolve(true);
  const observer = new MutationObserver(() => { if (found()) { observer.disconnect(); resolve(true); } });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})`;

const WAIT_FOR_FUNCTION_POLL_MS = 100;

export interface CdpPageOptions {
  /** Runs when the gate is requested: the previous document is gone, this one has run no script yet. */
  onGate?: () => Promise<void>;
  /** Report the top-level response status (needs the Network domain: only for url renders). */
  trackDocumentStatus?: boolean;
}

/**
 * The clock a render's page runs on. 'virtual' (virtual-clock.ts): Chromium's virtual time, which
 * jumps to the next due timer and stops while fetches are pending; a page once on it keeps it, so
 * a lane is one or the other.
 */
export type RenderClock = 'real' | 'virtual';

export class CdpPage {
  private pending: RenderDocument | undefined;
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
  private lifecycleWaiter: (() => void) | undefined;

  constructor(
    /** Also used by origin-credentials.ts, which intercepts the url lane's own requests. */
    readonly session: CdpSession,
    private readonly options: CdpPageOptions = {},
  ) {
    this.virtualClock = new VirtualClock(session);
  }

  /** Enables what the page needs; call once before the first load. */
  async init(): Promise<void> {
    this.session.on('Fetch.requestPaused', (event: Protocol.Fetch.RequestPausedEvent) => void this.answer(event));
    this.session.on('Page.lifecycleEvent', (event: Protocol.Page.LifecycleEventEvent) => this.onLifecycle(event));
    // Dialogs would hold the render until its timeout.
    this.session.on('Page.javascriptDialogOpening', () => void this.session.send('Page.handleJavaScriptDialog', { accept: false }).catch(() => undefined));
    const steps: Promise<unknown>[] = [
      this.session.send('Page.enable'),
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
   * Loads HTML as a fresh document, or navigates to a URL; resolves when waitUntil is reached.
   * With clock 'virtual' (networkidle0 only, see RenderClock) the page's clock is held while the
   * navigation starts, then runs until the network-idle window passed on it, then is held again.
   */
  async load(source: RenderSource, waitUntil: WaitUntil, clock: RenderClock = 'real'): Promise<{ status?: number }> {
    this.documentStatus.clear();
    this.documentRedirects.length = 0;
    this.clock = waitUntil === 'networkidle0' ? clock : 'real';
    const url = source.kind === 'html' ? (this.pending = renderDocument(source.html)).url : source.url;
    this.assets = source.kind === 'html' && source.assets ? { origin: new URL(url).origin, resolve: source.assets } : undefined;
    // Held before the document exists: a clock already running would spend the window before the
    // page's timers are even set (ENGINE-NOTES.md, "Waiting for network idle without waiting").
    const requests = this.clock === 'virtual' ? new RequestTracker(this.session, this.virtualClock) : undefined;
    try {
      if (requests) await this.virtualClock.hold();
      const { navigation, reached } = await this.navigate(url, requests ? 'load' : LIFECYCLE_EVENT[waitUntil]);
      if (navigation.errorText) {
        this.pending = undefined;
        await this.checkRedirects(source, navigation.loaderId);
        await this.checkUnsafeRedirect(source, navigation.errorText);
        throw new NavigationError(navigation.errorText.replace(/^net::/, ''));
      }
      await (requests ? this.virtualClock.waitForNetworkIdle(requests, reached) : reached);
    } finally {
      requests?.stop();
    }
    this.pending = undefined;
    await this.checkRedirects(source, this.loaderId);
    return { status: this.documentStatus.get(this.loaderId!) };
  }

  /**
   * Ends the current document (lane-policy.ts tearDownLane): navigates to about:blank, which
   * unloads the document with its timers, pending callbacks, workers and connections. The next
   * document's gate empties what the browsing context keeps across documents.
   */
  async clear(): Promise<void> {
    this.pending = undefined;
    this.assets = undefined;
    const { navigation, reached } = await this.navigate('about:blank', 'load');
    if (navigation.errorText) throw new NavigationError(`the page could not be cleared: ${navigation.errorText}`);
    await reached;
  }

  /** Starts a navigation; `reached` resolves when its document fires the wanted lifecycle event. */
  private async navigate(url: string, wanted: string): Promise<{ navigation: Protocol.Page.NavigateResponse; reached: Promise<void> }> {
    this.lifecycle.clear();
    this.loaderId = undefined;
    const reached = new Promise<void>((resolve) => {
      this.lifecycleWaiter = () => {
        if (this.loaderId && this.lifecycle.get(this.loaderId)?.has(wanted)) resolve();
      };
    });
    const navigation = (await this.session.send('Page.navigate', { url })) as Protocol.Page.NavigateResponse;
    if (!navigation.errorText) {
      this.loaderId = navigation.loaderId ?? '';
      this.lifecycleWaiter?.();
    }
    return { navigation, reached };
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

  /** Lets ms pass before printing: on the wall clock, or on the page's virtual clock (its timers due by then run at once). */
  async wait(ms: number): Promise<void> {
    if (this.clock === 'virtual') return this.virtualClock.run(ms);
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** Prints the current document; waits for web fonts first, as a browser's print does. */
  async print(params: Protocol.Page.PrintToPDFRequest): Promise<Uint8Array> {
    await this.session.send('Runtime.evaluate', { expression: 'document.fonts.ready.then(() => true)', awaitPromise: true, returnByValue: true });
    const { data } = (await this.session.send('Page.printToPDF', params)) as Protocol.Page.PrintToPDFResponse;
    return Buffer.from(data, 'base64');
  }

  private onLifecycle(event: Protocol.Page.LifecycleEventEvent): void {
    const names = this.lifecycle.get(event.loaderId) ?? new Set<string>();
    if (event.name === 'init') names.clear();
    names.add(event.name);
    this.lifecycle.set(event.loaderId, names);
    this.lifecycleWaiter?.();
  }

  /** Answers requests to the render site: the document, its gate, and 404 for anything else. */
  private async answer(event: Protocol.Fetch.RequestPausedEvent): Promise<void> {
    // Other requests are paused only while origin-credentials.ts intercepts them, and it answers them.
    if (!isRenderSiteUrl(event.request.url)) return;
    const pending = this.pending;
    try {
      if (pending && event.request.url === pending.url && event.resourceType === 'Document') {
        await this.fulfill(event.requestId, 200, 'text/html; charset=utf-8', pending.body);
      } else if (pending && event.request.url === pending.gateUrl) {
        await this.options.onGate?.();
        await this.fulfill(event.requestId, 200, 'text/javascript', GATE_SCRIPT);
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
