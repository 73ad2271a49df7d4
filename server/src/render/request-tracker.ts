// The page's requests in flight, from the Network domain's events: what networkidle0 and
// networkidle2 wait for, on the wall clock (quiet) or on a virtual one (virtual-clock.ts). Chromium's
// own networkIdle lifecycle event is not used: it comes once per navigation, not again for HTML
// written into a prepared document (cdp-page.ts), and on a coarse timer.

import type { CdpSession } from './cdp-session.ts';

/** The parts of Network.requestWillBeSent the tracker reads. */
interface TrackedRequest {
  requestId: string;
  loaderId: string;
  type?: string;
  initiator?: { type: string };
  request: { url: string };
}

/**
 * A fetch the browser makes for itself, not for the page: the favicon (type Other, initiated by
 * 'other', i.e. not by the parser, a script or a preload). What it answers changes nothing printed.
 */
function isBrowsersOwn(event: TrackedRequest): boolean {
  return event.type === 'Other' && event.initiator?.type === 'other';
}

/** What the tracker reads of a virtual clock (virtual-clock.ts): the page's time now, NaN when unreadable. */
export interface PageClock {
  now(): Promise<number>;
}

/** A request's start on the virtual clock, and whether it was read only after the request ended. */
interface Start {
  at: number;
  url: string;
  /** Read after the request ended: the clock may have run meanwhile, so `at` may be late. */
  late: boolean;
}

/** Where the latest request started on the virtual clock (lastStart()). */
export interface LastStart {
  at: number;
  /** The request's URL when its start was read after it ended (the reading may be late), else undefined. */
  lateUrl?: string;
}

/**
 * Counts the page's requests in flight from Network events (the Network domain must be enabled).
 * With a virtual clock it also reads the clock as each one starts: the clock stands still while a
 * request is in flight, so that reading is the request's place in virtual time, unless the request
 * ended before the reading came back (a request answered from memory): then the reading is marked late.
 * Fetches the browser makes for itself are not the page's and are not counted: full Chromium
 * (not the headless shell) asks every document for /favicon.ico once it loaded, at a wall-clock
 * moment, which moved the network-idle window on a loaded machine and let later timers run
 * (issue 34, bench/experiments/vt-load.ts).
 */
export class RequestTracker {
  private readonly pending = new Set<string>();
  private readonly starts: Promise<Start>[] = [];
  private waiters: (() => void)[] = [];
  private readonly watchers = new Set<() => void>();
  private readonly onStart = (event: TrackedRequest) => {
    // A worker's script is requested with no loader, and its end is reported to the worker's
    // target, not this session (bench/experiments/worker-requests.ts): counted, it would be in
    // flight forever. The worker's own requests are not reported here at all.
    if (!event.loaderId || isBrowsersOwn(event)) return;
    const id = event.requestId;
    this.pending.add(id);
    if (this.clock) this.starts.push(this.clock.now().then((at) => ({ at, url: event.request.url, late: !this.pending.has(id) })));
    for (const watcher of this.watchers) watcher();
  };
  private readonly onEnd = (event: { requestId: string }) => {
    this.pending.delete(event.requestId);
    if (this.pending.size === 0) for (const waiter of this.waiters.splice(0)) waiter();
    for (const watcher of this.watchers) watcher();
  };

  constructor(
    private readonly session: CdpSession,
    private readonly clock?: PageClock,
  ) {
    session.on('Network.requestWillBeSent', this.onStart);
    session.on('Network.loadingFinished', this.onEnd);
    session.on('Network.loadingFailed', this.onEnd);
  }

  /** Resolves when no request is in flight. */
  none(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * Resolves once at most maxInFlight requests were in flight for ms of wall time without a break:
   * networkidle0 (0) and networkidle2 (2) on the wall clock.
   */
  quiet(ms: number, maxInFlight: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        this.watchers.delete(watch);
        resolve();
      };
      const watch = () => {
        if (this.pending.size > maxInFlight) {
          clearTimeout(timer);
          timer = undefined;
        } else {
          timer ??= setTimeout(done, ms);
        }
      };
      this.watchers.add(watch);
      watch();
    });
  }

  /**
   * Virtual time at which the latest request started; a request whose start could not be read
   * counts as starting now (later than it did: the window only grows), as a late reading.
   */
  async lastStart(): Promise<LastStart | undefined> {
    if (this.starts.length === 0) return undefined;
    const starts = await Promise.all(this.starts);
    if (starts.some((start) => Number.isNaN(start.at))) {
      // Read once: the same request must not move the window again on the next check.
      const now = this.clock!.now();
      for (const [i, start] of starts.entries()) {
        if (Number.isNaN(start.at)) this.starts[i] = now.then((at) => ({ at, url: start.url, late: true }));
      }
      return this.lastStart();
    }
    const last = starts.reduce((latest, start) => (start.at > latest.at ? start : latest));
    return { at: last.at, lateUrl: last.late ? last.url : undefined };
  }

  stop(): void {
    this.watchers.clear();
    this.session.off('Network.requestWillBeSent', this.onStart);
    this.session.off('Network.loadingFinished', this.onEnd);
    this.session.off('Network.loadingFailed', this.onEnd);
  }
}
