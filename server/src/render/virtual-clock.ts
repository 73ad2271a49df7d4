// A page's virtual clock (Chromium's Emulation.setVirtualTimePolicy) and what the renderer waits
// for on it: network idle, a number of milliseconds, a selector. The clock only runs while no
// fetch is pending and jumps to the next due timer, so a wait costs the wall time the page needs
// to run its timers, not the milliseconds it names. Measured in bench/experiments/vt-budget.ts and
// virtual-time.ts. Used by cdp-page.ts; knows nothing of documents or printing.

import type { CdpSession } from './cdp-page.ts';

/** The quiet window of networkidle0, as puppeteer and SPEC.md define it: 500 ms with no request in flight. */
export const NETWORK_IDLE_MS = 500;

/** Virtual milliseconds the clock runs while an image that started loading is awaited. */
const IMAGE_STEP_MS = 10;

/** Virtual milliseconds the clock runs between checks of a wait_for selector. */
const SELECTOR_STEP_MS = 100;

export class VirtualClock {
  constructor(private readonly session: CdpSession) {}

  /** Stops the page's clock: its timers do not fire until the clock runs again. */
  async hold(): Promise<void> {
    await this.session.send('Emulation.setVirtualTimePolicy', { policy: 'pause' });
  }

  /** Runs the clock for ms of virtual time (stopped while fetches are pending), then holds it. */
  async run(ms: number): Promise<void> {
    const expired = this.nextExpiry();
    await this.session.send('Emulation.setVirtualTimePolicy', { policy: 'pauseIfNetworkFetchesPending', budget: ms });
    await expired;
  }

  /**
   * Resolves once NETWORK_IDLE_MS of virtual time passed since the last request started (none in
   * flight meanwhile: the clock stops while one is, so a request takes no virtual time) and
   * `loaded` resolved. Call right after the navigation was sent, with the clock held; with the
   * clock held the document does not load, so the first window starts at once.
   */
  async waitForNetworkIdle(requests: RequestTracker, loaded: Promise<void>): Promise<void> {
    let isLoaded = false;
    void loaded.then(() => (isLoaded = true));
    let windowEnd = (await this.now()) + NETWORK_IDLE_MS;
    for (;;) {
      const now = await this.now();
      if (now < windowEnd) await this.run(windowEnd - now);
      await requests.none();
      const lastStart = await requests.lastStart();
      if (lastStart !== undefined && lastStart + NETWORK_IDLE_MS > windowEnd) {
        windowEnd = lastStart + NETWORK_IDLE_MS;
        continue;
      }
      if (!isLoaded) {
        await loaded;
        windowEnd = (await this.now()) + NETWORK_IDLE_MS;
        continue;
      }
      // A lazy image is requested once layout placed it near the viewport (after a web font
      // loaded, say): its request may not have reached us yet. One that started loading has a
      // currentSrc; wait for it as for any request.
      if (await this.hasImagesLoading()) {
        windowEnd = Math.max(windowEnd, await this.now());
        await this.run(IMAGE_STEP_MS);
        continue;
      }
      return;
    }
  }

  /** Runs the clock in small steps until `found` settles; holds it after. */
  async runUntil<T>(found: Promise<T>): Promise<T> {
    let settled = false;
    const watched = found.finally(() => (settled = true));
    watched.catch(() => undefined);
    while (!settled) {
      await Promise.race([this.run(SELECTOR_STEP_MS), watched]);
    }
    await this.hold();
    return watched;
  }

  private async hasImagesLoading(): Promise<boolean> {
    const { result } = await this.session
      .send('Runtime.evaluate', { expression: "Array.prototype.some.call(document.images, (image) => !image.complete && image.currentSrc !== '')", returnByValue: true })
      .catch(() => ({ result: undefined }));
    return result?.value === true;
  }

  /**
   * The page's virtual clock: Date.now() of its main world, continuous across its documents.
   * NaN when it cannot be read (the document is being replaced).
   */
  now(): Promise<number> {
    return this.session
      .send('Runtime.evaluate', { expression: 'Date.now()', returnByValue: true })
      .then(({ result }) => (typeof result?.value === 'number' ? result.value : Number.NaN))
      .catch(() => Number.NaN);
  }

  private nextExpiry(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.session.off('Emulation.virtualTimeBudgetExpired', done);
        resolve();
      };
      this.session.on('Emulation.virtualTimeBudgetExpired', done);
    });
  }
}

/**
 * Counts the page's requests from Network events (the Network domain must be enabled), and reads
 * the virtual clock as each one starts: the clock stands still while a request is in flight, so
 * that reading is the request's place in virtual time.
 */
export class RequestTracker {
  private readonly pending = new Set<string>();
  private readonly starts: Promise<number>[] = [];
  private waiters: (() => void)[] = [];
  private readonly onStart = (event: { requestId: string }) => {
    this.pending.add(event.requestId);
    this.starts.push(this.clock.now());
  };
  private readonly onEnd = (event: { requestId: string }) => {
    this.pending.delete(event.requestId);
    if (this.pending.size === 0) for (const waiter of this.waiters.splice(0)) waiter();
  };

  constructor(
    private readonly session: CdpSession,
    private readonly clock: VirtualClock,
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
   * Virtual time at which the latest request started; a request whose start could not be read
   * counts as starting now (later than it did: the window only grows).
   */
  async lastStart(): Promise<number | undefined> {
    if (this.starts.length === 0) return undefined;
    const starts = await Promise.all(this.starts);
    if (starts.some((start) => Number.isNaN(start))) {
      // Read once: the same request must not move the window again on the next check.
      const now = this.clock.now();
      starts.forEach((start, i) => Number.isNaN(start) && (this.starts[i] = now));
      return this.lastStart();
    }
    return Math.max(...starts);
  }

  stop(): void {
    this.session.off('Network.requestWillBeSent', this.onStart);
    this.session.off('Network.loadingFinished', this.onEnd);
    this.session.off('Network.loadingFailed', this.onEnd);
  }
}
