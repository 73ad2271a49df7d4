// A page's virtual clock (Chromium's Emulation.setVirtualTimePolicy) and what the renderer waits
// for on it: network idle, a number of milliseconds, a selector. The clock only runs while no
// fetch is pending and jumps to the next due timer, so a wait costs the wall time the page needs
// to run its timers, not the milliseconds it names. Measured in bench/experiments/vt-budget.ts and
// virtual-time.ts. Used by cdp-page.ts; knows nothing of documents or printing.
//
// Frames, and why the clock draws them where it can: frame-turn.ts.
// Engines without begin-frame control (full Chromium, Electron) draw frames on the wall clock, and
// only while the page's clock runs: there the clock runs in 1 ms steps until the page's next two
// frames came, ending before the network-idle window does (bench/experiments/vt-real-frames.ts), and
// in steps of 0.1 ms and shrinking while the engine prints (past the window: a few ms at most).
// Where a step sequence ran the clock further than the page's timers allow for, the clock notes it
// (notes()) and the receipt says so rather than print a page that depended on the machine's load
// (bench/experiments/vt-load.ts). The step sizes, and why: virtual-clock-steps.ts.

import type { CdpSession } from './cdp-session.ts';
import { type FrameSource, FrameTurn } from './frame-turn.ts';
import type { RequestTracker } from './request-tracker.ts';

import {
  COMPOSITOR_FRAMES_MS,
  COMPOSITOR_STEP_MS,
  FRAME_INTERVAL_MS,
  IMAGE_STEP_MS,
  LET_GO_MS,
  NETWORK_IDLE_MS,
  NEXT_TWO_FRAMES,
  PRINT_SLACK_MS,
  PRINT_STEP_DECAY,
  PRINT_STEP_MIN_MS,
  PRINT_STEP_MS,
  SELECTOR_STEP_MS,
} from './virtual-clock-steps.ts';

export class VirtualClock {
  /** What made this render's clock inexact (see notes()). */
  private readonly inexact: string[] = [];
  /** Counts hold() calls: a run started before the latest one grants no further budget. */
  private held = 0;

  constructor(
    private readonly session: CdpSession,
    private readonly frames: FrameSource = { kind: 'begin-frame', turn: new FrameTurn() },
  ) {}

  /**
   * Stops the page's clock: its timers do not fire until the clock runs again. `newContent`, with
   * compositor frames: a clock still held from the previous render keeps the new document from
   * ever drawing a frame (measured on a reused lane: rAF callbacks never ran), so it is let go for
   * a moment first, before the content exists: one virtual ms. Not with policy 'advance', which
   * has no end: on full Chromium it ran the clock 30 s to an hour ahead of the wall clock in that
   * moment (Chromium's own delayed tasks; bench/experiments/vt-wall-clock.ts, issue 39).
   */
  async hold(newContent = false): Promise<void> {
    this.held++;
    if (newContent && this.frames.kind === 'compositor') await this.runBudget(LET_GO_MS);
    await this.session.send('Emulation.setVirtualTimePolicy', { policy: 'pause' });
  }

  /**
   * Runs the clock for ms of virtual time (stopped while fetches are pending), then holds it; a
   * frame is drawn before every FRAME_INTERVAL_MS of it.
   */
  async run(ms: number): Promise<void> {
    if (this.frames.kind === 'compositor') return this.runWithCompositorFrames(ms);
    const held = this.held;
    for (let left = ms; left > 0 && held === this.held; left -= FRAME_INTERVAL_MS) {
      await this.drawFrame();
      await this.runBudget(Math.min(left, FRAME_INTERVAL_MS));
    }
  }

  /**
   * Draws one frame, with the clock as it stands: rAF callbacks, style, layout, intersection
   * observers (lazy images and iframes start loading here). Nothing is painted for display.
   */
  async drawFrame(): Promise<void> {
    if (this.frames.kind === 'compositor') return;
    await this.frames.turn.run(() => this.session.send('HeadlessExperimental.beginFrame', { noDisplayUpdates: true }));
  }

  /**
   * Runs the clock for ms with the page's next two compositor frames awaited in its last
   * COMPOSITOR_FRAMES_MS: they come before the run ends, so waiting for them runs no timer the run
   * would not have run (what a timer changes in those last moments may get no frame).
   */
  private async runWithCompositorFrames(ms: number): Promise<void> {
    const held = this.held;
    const lead = Math.min(COMPOSITOR_FRAMES_MS, ms);
    if (ms > lead) await this.runBudget(ms - lead);
    const spent = await this.awaitCompositorFrames(lead, held);
    if (lead > spent && held === this.held) await this.runBudget(lead - spent);
  }

  /**
   * Compositor frames only: runs the clock in COMPOSITOR_STEP_MS steps until the page drew its
   * next two frames, for at most `limit` virtual ms, or until the clock is held again (hold() calls
   * counted `held` when the run began); holds it after. Returns the virtual ms spent.
   */
  private async awaitCompositorFrames(limit: number, held: number): Promise<number> {
    let drawn = false;
    const frames = this.session
      .send('Runtime.evaluate', { expression: NEXT_TWO_FRAMES, awaitPromise: true, returnByValue: true })
      .catch(() => undefined)
      .finally(() => (drawn = true));
    let spent = 0;
    while (!drawn && spent < limit && held === this.held) {
      const step = Math.min(COMPOSITOR_STEP_MS, limit - spent);
      await this.runBudget(step);
      spent += step;
    }
    void frames;
    return spent;
  }

  private async runBudget(ms: number): Promise<void> {
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
      await this.runTo(windowEnd);
      // What the last timers changed is drawn before the window may close: a lazy image placed
      // in view by them starts loading in that frame, and counts as a request like any other.
      await this.drawFrame();
      await requests.none();
      const lastStart = await requests.lastStart();
      if (lastStart !== undefined && lastStart.at + NETWORK_IDLE_MS > windowEnd) {
        windowEnd = lastStart.at + NETWORK_IDLE_MS;
        if (lastStart.lateUrl) {
          this.note(
            `the network-idle window may have run long: the start of ${lastStart.lateUrl.slice(0, 200)} was read on the page's clock only after it ended`,
          );
        }
        continue;
      }
      if (!isLoaded) {
        await loaded;
        windowEnd = (await this.now()) + NETWORK_IDLE_MS;
        continue;
      }
      // A lazy image is requested in the frame that placed it near the viewport (after a web font
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

  /**
   * Runs the clock until the page's Date.now() reads `end`, however early an expiry came: Chromium
   * fires a budget's expiry (and pauses the clock) when virtual time reaches it even after a newer
   * budget replaced it, so a budget that runUntil or stepWhile left behind ended the next run early
   * ("after 250" where the window allows "after 450": bench/experiments/vt-stale-budget.ts).
   */
  async runTo(end: number): Promise<void> {
    for (let now = await this.now(); now < end; now = await this.now()) await this.run(end - now);
  }

  /**
   * Runs the page's clock up to the wall clock's now, drawing no frame: with the clock held and
   * before a render's content exists, so no timer of the render runs. A page's clock otherwise
   * starts where its lane's last render left it (the lane's opening plus the virtual time its
   * renders spent: issue 39), and Chromium takes initialVirtualTime only when a page's virtual time
   * is first enabled (bench/experiments/vt-initial-time.ts). A jump of minutes costs 1-4 ms. Stale
   * expiries are handled as in runTo. A clock ahead of the wall clock cannot go back: it stays.
   */
  async startAtWallTime(): Promise<void> {
    const end = Date.now();
    for (let now = await this.now(); now < end; now = await this.now()) await this.runBudget(end - now);
  }

  /**
   * How far the page's clock stands ahead of the wall clock, in ms: 0 behind it or when the page
   * never ran on virtual time; Infinity when it cannot be read. Renders sent faster than they spend
   * virtual time (500 ms each by default) run it ahead, and it cannot go back (lane-policy.ts).
   */
  async lead(): Promise<number> {
    if (this.held === 0) return 0;
    const now = await this.now();
    return Number.isNaN(now) ? Number.POSITIVE_INFINITY : Math.max(0, now - Date.now());
  }

  /** Runs the clock for ms as the page reads it (runTo); as run() where the clock cannot be read. */
  async runFor(ms: number): Promise<void> {
    const start = await this.now();
    return Number.isNaN(start) ? this.run(ms) : this.runTo(start + ms);
  }

  /**
   * Compositor frames only: the engine's print waits for work the held clock keeps back (a lazy
   * image's load is finished in a frame), so the clock runs in shrinking steps (PRINT_STEP_MS...) while
   * `work` runs; elsewhere `work` alone.
   */
  async stepWhile<T>(work: Promise<T>): Promise<T> {
    if (this.frames.kind !== 'compositor') return work;
    let settled = false;
    const watched = work.finally(() => (settled = true));
    watched.catch(() => undefined);
    let spent = 0;
    for (let step = PRINT_STEP_MS; !settled; step = Math.max(PRINT_STEP_MIN_MS, step * PRINT_STEP_DECAY)) {
      await Promise.race([this.runBudget(step), watched]);
      spent += step;
    }
    if (spent > PRINT_SLACK_MS) {
      this.note(
        `the page's virtual clock ran ${Math.round(spent)} ms past the network-idle window while the engine printed (no begin-frame control): timers due in that time may show`,
      );
    }
    return watched;
  }

  /** Records why this render's clock was not exact; the renderer puts it on the receipt. */
  note(text: string): void {
    if (!this.inexact.includes(text)) this.inexact.push(text);
  }

  /** What made the clock inexact since the last call (and forgets it): receipt warnings. */
  notes(): string[] {
    return this.inexact.splice(0);
  }

  /**
   * Begin frames only: a screenshot waits for a frame with display updates, and a target under
   * begin-frame control draws none unless asked (Page.captureScreenshot otherwise never answers),
   * so frames are drawn, with the clock held, until `work` settles; elsewhere `work` alone. A page on
   * compositor frames may never present a screenshot's frame on its virtual clock, held or stepped:
   * images there take the wall clock (render-path.ts leaseMode).
   */
  async drawWhile<T>(work: Promise<T>): Promise<T> {
    if (this.frames.kind !== 'begin-frame') return work;
    const { turn } = this.frames;
    let settled = false;
    const watched = work.finally(() => (settled = true));
    watched.catch(() => undefined);
    while (!settled) await Promise.race([turn.run(() => this.session.send('HeadlessExperimental.beginFrame', {})), watched]);
    return watched;
  }

  /** Runs the clock in small steps until `found` settles; holds it after. */
  async runUntil<T>(found: Promise<T>): Promise<T> {
    let settled = false;
    const watched = found.finally(() => (settled = true));
    watched.catch(() => undefined);
    while (!settled) await Promise.race([this.run(SELECTOR_STEP_MS), watched]);
    // Also ends the step left running: it grants no further budget once the clock is held.
    await this.hold();
    return watched;
  }

  private async hasImagesLoading(): Promise<boolean> {
    const { result } = await this.session
      .send('Runtime.evaluate', {
        expression: "Array.prototype.some.call(document.images, (image) => !image.complete && image.currentSrc !== '')",
        returnByValue: true,
      })
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
