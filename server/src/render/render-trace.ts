// What one render did, for its receipt (services/accounts/receipts.ts): the stages' times, every request
// the page made (and which the network guard refused), the page's console errors and uncaught
// exceptions, and warnings. A render only carries a trace when a receipt is wanted or OpenTelemetry
// is on; the recorder listens on the page's CDP session (Network is enabled anyway; Runtime only
// while it records) only for a receipt (`detail`), so a render without one costs nothing here. The
// stage marks are the one timing of a render: the receipt's timings_ms, the spans and the stage
// metric are all read from them (STAGES).

import type { Protocol } from 'puppeteer-core';
import type { CdpSession } from './cdp-session.ts';
import type { PageInspection } from './cdp-page.ts';
import { isRenderSiteUrl } from './render-document.ts';

/** The stages a render passes, in order; each mark is the time (ms since the trace began) it ended. */
export type TraceStage = 'admitted' | 'leased' | 'loaded' | 'idle' | 'waited' | 'printed' | 'finished';

// A table of tuples, as pdf/conformance-xmp.ts's MIRRORS is: the shape alike, the data unrelated.
/** The stages as receipts, spans and metrics name them: each runs from one mark (or the trace's start) to the next. */
export const STAGES: readonly (readonly [name: string, from: TraceStage | 'start', to: TraceStage])[] = [
  ['queue_wait', 'start', 'admitted'],
  ['page', 'admitted', 'leased'],
  ['load', 'leased', 'loaded'],
  ['network_idle', 'loaded', 'idle'],
  ['waits', 'idle', 'waited'],
  ['print', 'waited', 'printed'],
  ['post_processing', 'printed', 'finished'],
];

/** One request of the page, as the Network domain reported it. */
export interface TracedRequest {
  method: string;
  url: string;
  resourceType: string;
  /** Where the answer came from: the network (through the guard), the render's own assets, a data: URL, or the HTTP cache. */
  origin: 'network' | 'asset' | 'data' | 'cache';
  status?: number;
  /** Bytes received over the wire (encoded length). */
  bytes: number;
  startMs: number;
  endMs?: number;
  /** The load error Chromium reported (net::ERR_...), when it failed. */
  failure?: string;
  /** Refused by the network guard's egress proxy (403 with x-quire-guard: blocked, or a refused CONNECT tunnel). */
  blocked: boolean;
}

export interface TracedMessage {
  kind: 'console' | 'exception';
  level: string;
  text: string;
  url?: string;
  line?: number;
}

/** The header the egress proxy marks its own refusals with (guard/egress-proxy.ts). */
const GUARD_HEADER = 'x-quire-guard';
/** What Chromium reports for an https request whose CONNECT the proxy refused. */
const TUNNEL_REFUSED = 'net::ERR_TUNNEL_CONNECTION_FAILED';
const MAX_REQUESTS = 500;
const MAX_MESSAGES = 100;
const MAX_TEXT = 2000;

/** A render's record, filled in by the renderer and the recorder; read once the render ended. */
export class RenderTrace {
  /** performance.now() when the trace began: the marks count from here. */
  readonly origin = performance.now();
  readonly marks: Partial<Record<TraceStage, number>> = {};
  readonly requests: TracedRequest[] = [];
  /** Requests over MAX_REQUESTS, counted but not listed. */
  droppedRequests = 0;
  readonly messages: TracedMessage[] = [];
  readonly warnings: string[] = [];
  /** The clock the page ran on, the render path in force for default renders (render-path.ts), the engine's version text. */
  renderPath: { clock: string; mode: string; engine: string } | undefined;
  /** The stage the render was in when it failed. */
  failedStage: string | undefined;
  /** Font families the page's styles name (lower case, as written), read before printing. */
  fontFamilies: string[] = [];

  /** @param detail record requests, console messages and fonts (a receipt); without it only the stage marks (the spans). */
  constructor(readonly detail = true) {}

  /** Each stage the render reached: its start and end in ms since the trace began. */
  stages(): { name: string; start: number; end: number }[] {
    const reached: { name: string; start: number; end: number }[] = [];
    for (const [name, from, to] of STAGES) {
      const start = from === 'start' ? 0 : this.marks[from];
      const end = this.marks[to];
      if (start !== undefined && end !== undefined) reached.push({ name, start, end });
    }
    return reached;
  }

  now(): number {
    return Math.round((performance.now() - this.origin) * 10) / 10;
  }

  mark(stage: TraceStage): void {
    this.marks[stage] = this.now();
  }

  warn(text: string): void {
    if (!this.warnings.includes(text)) this.warnings.push(text);
  }
}

/**
 * Listens to the page's Network and Runtime events into the trace until stop(). Runtime is
 * enabled only for the recording (console messages and exceptions) and disabled again, so the
 * page the lane hands to the next render is as it was.
 */
export async function startRecording(session: CdpSession, trace: RenderTrace): Promise<{ stop(): Promise<void> }> {
  const byId = new Map<string, TracedRequest>();
  const onRequest = (event: Protocol.Network.RequestWillBeSentEvent) => {
    // A redirect reuses the request id: the hop before it ends here.
    const previous = byId.get(event.requestId);
    if (previous && event.redirectResponse) {
      previous.status = event.redirectResponse.status;
      previous.endMs = trace.now();
    }
    if (trace.requests.length >= MAX_REQUESTS) {
      trace.droppedRequests++;
      return;
    }
    const url = event.request.url;
    const request: TracedRequest = {
      method: event.request.method,
      url,
      resourceType: event.type ?? 'Other',
      origin: url.startsWith('data:') ? 'data' : isRenderSiteUrl(url) ? 'asset' : 'network',
      bytes: 0,
      startMs: trace.now(),
      blocked: false,
    };
    byId.set(event.requestId, request);
    trace.requests.push(request);
  };
  const onResponse = (event: Protocol.Network.ResponseReceivedEvent) => {
    const request = byId.get(event.requestId);
    if (!request) return;
    request.status = event.response.status;
    if (event.response.fromDiskCache || event.response.fromPrefetchCache) request.origin = 'cache';
    if (event.response.status === 403 && headerOf(event.response.headers, GUARD_HEADER) === 'blocked') request.blocked = true;
  };
  const onFinished = (event: Protocol.Network.LoadingFinishedEvent) => {
    const request = byId.get(event.requestId);
    if (!request) return;
    request.bytes = Math.max(0, Math.round(event.encodedDataLength));
    request.endMs = trace.now();
  };
  const onFailed = (event: Protocol.Network.LoadingFailedEvent) => {
    const request = byId.get(event.requestId);
    if (!request) return;
    request.failure = event.blockedReason ? `blocked by the browser (${event.blockedReason})` : event.errorText;
    if (event.errorText === TUNNEL_REFUSED) request.blocked = true;
    request.endMs = trace.now();
  };
  const onCache = (event: Protocol.Network.RequestServedFromCacheEvent) => {
    const request = byId.get(event.requestId);
    if (request) request.origin = 'cache';
  };
  const onConsole = (event: Protocol.Runtime.ConsoleAPICalledEvent) => {
    if (event.type !== 'error' && event.type !== 'assert') return;
    const frame = event.stackTrace?.callFrames[0];
    push(trace, { kind: 'console', level: event.type, text: event.args.map(textOf).join(' '), url: frame?.url || undefined, line: lineOf(frame?.lineNumber) });
  };
  const onException = (event: Protocol.Runtime.ExceptionThrownEvent) => {
    const details = event.exceptionDetails;
    const text = details.exception?.description?.split('\n')[0] ?? details.text;
    push(trace, { kind: 'exception', level: 'error', text, url: details.url || undefined, line: lineOf(details.lineNumber) });
  };
  // biome-ignore lint/suspicious/noExplicitAny: each handler declares the Protocol event it reads
  const handlers: [string, (params: any) => void][] = [
    ['Network.requestWillBeSent', onRequest],
    ['Network.responseReceived', onResponse],
    ['Network.loadingFinished', onFinished],
    ['Network.loadingFailed', onFailed],
    ['Network.requestServedFromCache', onCache],
    ['Runtime.consoleAPICalled', onConsole],
    ['Runtime.exceptionThrown', onException],
  ];
  for (const [event, handler] of handlers) session.on(event, handler);
  // Not awaited: a session runs its commands in order, so Runtime is on before the content loads
  // and off before the lane's next render sends anything, without the render waiting for either.
  const enabled = session.send('Runtime.enable').catch(() => undefined);
  return {
    async stop() {
      for (const [event, handler] of handlers) session.off(event, handler);
      void enabled.then(() => session.send('Runtime.disable')).catch(() => undefined);
    },
  };
}

/**
 * What the receipt's warnings and font check read in the page just before printing (images not yet
 * loaded, font families named): evaluated with the print's own wait for fonts (cdp-page.ts print),
 * so a receipt adds no round trip there.
 */
export function inspectionFor(trace: RenderTrace): PageInspection {
  return {
    expression: INSPECT,
    onValue(value) {
      const found = value as { loading?: string[]; families?: string[] } | undefined;
      for (const src of (found?.loading ?? []).slice(0, 20)) trace.warn(`image still loading when the page was printed: ${src.slice(0, 300)}`);
      trace.fontFamilies = (found?.families ?? []).slice(0, 100);
    },
  };
}

/** The same look for a render that prints nothing (an image capture): its own evaluation. */
export async function inspectBeforeCapture(session: CdpSession, trace: RenderTrace): Promise<void> {
  const { result } = (await session.send('Runtime.evaluate', { expression: INSPECT, returnByValue: true })) as Protocol.Runtime.EvaluateResponse;
  inspectionFor(trace).onValue(result.value);
}

/**
 * Runs in the page: images not complete, and the font families its styles name: the style sheets'
 * rules (same-origin ones; nested @media and @supports rules included), inline styles, and what the
 * root and body compute to (the default font). Reading the rules costs a fraction of asking every
 * element for its computed style, which was about 2 ms of the invoice's 35 ms of CPU.
 */
const INSPECT = `(() => {
  const loading = [...document.images].filter((image) => !image.complete).map((image) => image.currentSrc || image.src);
  const families = new Set();
  const add = (list) => { for (const name of String(list || '').split(',')) { const clean = name.trim().replace(/^["']|["']$/g, '').toLowerCase(); if (clean) families.add(clean); } };
  const visit = (rules) => { for (const rule of rules) { if (rule.style) add(rule.style.fontFamily); if (rule.cssRules) visit(rule.cssRules); } };
  for (const sheet of document.styleSheets) { try { visit(sheet.cssRules); } catch {} }
  for (const element of document.querySelectorAll('[style*="font"]')) add(element.style.fontFamily);
  for (const element of [document.documentElement, document.body]) if (element) add(getComputedStyle(element).fontFamily);
  return { loading, families: [...families] };
})()`;

function push(trace: RenderTrace, message: TracedMessage): void {
  if (trace.messages.length >= MAX_MESSAGES) return;
  trace.messages.push({ ...message, text: message.text.slice(0, MAX_TEXT) });
}

function textOf(arg: Protocol.Runtime.RemoteObject): string {
  if (arg.type === 'string') return String(arg.value);
  if (arg.value !== undefined) return JSON.stringify(arg.value);
  return arg.description ?? arg.type;
}

function lineOf(zeroBased: number | undefined): number | undefined {
  return zeroBased === undefined ? undefined : zeroBased + 1;
}

function headerOf(headers: Protocol.Network.Headers, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return String(value);
  return undefined;
}
