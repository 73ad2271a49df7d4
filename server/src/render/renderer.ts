// Renders HTML or a URL to PDF bytes on a PageSource, behind RenderSlots. One time budget
// (options.timeout_ms) covers loading, waits and printing. Knows nothing of keys, plans or HTTP.

import { NavigationError, PageCrashedError, RenderInputError, RenderTimeoutError, RendererCrashedError } from './errors.ts';
import type { CdpPage, RenderClock } from './cdp-page.ts';
import type { PageLease, PageSource } from './page-source.ts';
import { isVirtual, type RenderPath } from './render-path.ts';
import type { RenderSource } from './render-source.ts';
import type { PdfOptions } from './pdf-options.ts';
import { toPrintToPdfParams } from './print-params.ts';
import { RenderSlots, type RenderPriority, type SlotStats, type Tenant } from './render-slots.ts';
import { settleWithin } from './settle-within.ts';
import { hasOriginCredentials, sendCredentialsToOrigin } from './origin-credentials.ts';
import { finishPdf, stampInWorker } from '../pdf/finisher.ts';
import { captureImage, prepareCapture, type ImageCapture } from './image-capture.ts';
import { headsOf, geometryOf, learnFromPage, withRoom } from './header-plan.ts';
import { inspectBody, printHeads, type PendingHeads, type PrintedHeads } from './header-pass.ts';
import type { Numbering } from './header-overlay.ts';
import { ownNumbering } from './numbering.ts';
import { printHeadsOnPdf, type HeadsOnPdf } from './heads-on-pdf.ts';
import type { PdfLayout } from '../pdf/pdf-layout.ts';
import type { FinishOptions } from '../pdf/finish-options.ts';
import { inSpan } from '../telemetry/spans.ts';
import { inspectBeforeCapture, inspectionFor, startRecording, type RenderTrace } from './render-trace.ts';

export interface RenderJob {
  source: RenderSource;
  /** Complete and validated (defaults filled in). */
  options: PdfOptions;
  /** Batch items render in the background: they wait as long as needed and yield to interactive renders. */
  priority?: RenderPriority;
  /** Capture an image (POST /v1/image) instead of printing; the result is the image bytes. */
  image?: ImageCapture;
  /** Who the render is for: its slot share and its turn among tenants (render-slots.ts). */
  tenant?: Tenant;
  /** The render's data, for the placeholders of options.header and options.footer. */
  data?: unknown;
  /** Filled in with what the render did (its receipt); without one nothing is recorded. */
  trace?: RenderTrace;
}

/** A body printed for a merge: its header and footer wait for the merged page numbers (decorate). */
export interface PrintedBody {
  pdf: Uint8Array;
  /** Present when the render asked for a header or footer. */
  heads?: PendingHeads;
}

/** What a render's time in the slot produced: the bytes, and the header and footer printed (or waiting). */
interface Printed {
  pdf: Uint8Array;
  stamp?: PrintedHeads;
  heads?: PendingHeads;
}

export type RenderOutcome = 'success' | 'timeout' | 'navigation_failed' | 'invalid_input' | 'crashed' | 'page_crashed' | 'busy' | 'blocked' | 'error';

export interface RendererHooks {
  onRender?: (outcome: RenderOutcome, seconds: number) => void;
  /** A render is tried again after its browser ('browser') or page ('page') crashed under it. */
  onRetry?: (scope: 'browser' | 'page') => void;
}

export interface RenderLimits {
  concurrency: number;
  queueSize: number;
  queueTimeoutMs: number;
}

export interface RendererStats extends SlotStats {
  version: string;
  /** The path default renders take and why (render-path.ts). */
  renderPath: RenderPath;
  restarts: number;
  rendersTotal: number;
}

/** What draws a header and footer on a PDF we did not lay out (office conversions, merges, transforms). */
export type HeadsDrawer = Pick<Renderer, 'decoratePdf'>;

export class Renderer {
  private rendersTotal = 0;
  private closing = false;
  private averageMs = 500;

  private readonly slots: RenderSlots;

  constructor(
    private readonly pages: PageSource,
    limits: RenderLimits,
    private readonly hooks: RendererHooks = {},
  ) {
    this.slots = new RenderSlots(limits.concurrency, limits.queueSize, limits.queueTimeoutMs, () => this.averageMs);
  }

  /**
   * Renders one job to PDF bytes; throws the errors of errors.ts. A render whose browser or page
   * crashed under it is retried once on a fresh page (the browser relaunched if it died), within
   * the same time budget and slot: nothing was charged or stored yet (services do that after), so a
   * crash another render caused costs the caller nothing. A page that crashed its renderer on both
   * tries ends in PageCrashedError.
   */
  async render(job: RenderJob): Promise<Uint8Array> {
    const started = performance.now();
    let outcome: RenderOutcome = 'error';
    try {
      const printed = await this.printWithRetry(job, 'whole');
      // Metadata, watermark and encryption (and drawing the headers and footers) need no browser:
      // they run on the PDF worker while the page is handed back.
      const pdf = job.image
        ? printed.pdf
        : printed.stamp
          ? await inSpan('render.stamp', {}, () => stampInWorker(printed.pdf, printed.stamp!.overlay, printed.stamp!.plan, job.options))
          : printed.heads
            ? await this.decorate({ pdf: printed.pdf, heads: printed.heads }, ownNumbering(printed.heads.pageCount), job.tenant, job.priority, job.trace)
            : await finishPdf(printed.pdf, job.options);
      job.trace?.mark('finished');
      outcome = 'success';
      return pdf;
    } catch (error) {
      outcome = outcomeOf(error);
      throw error;
    } finally {
      const ms = performance.now() - started;
      if (outcome === 'success') {
        this.rendersTotal++;
        this.averageMs = this.averageMs * 0.9 + ms * 0.1;
      }
      this.hooks.onRender?.(outcome, ms / 1000);
    }
  }

  /**
   * Prints a merge source's body: finished (metadata, watermark) unless it has a header or
   * footer, which then waits in `heads` for decorate() with the merged page numbers.
   */
  async renderBody(job: RenderJob): Promise<PrintedBody> {
    const started = performance.now();
    let outcome: RenderOutcome = 'error';
    try {
      const printed = await this.printWithRetry(job, 'body');
      const body: PrintedBody = printed.heads ? { pdf: printed.pdf, heads: printed.heads } : { pdf: await finishPdf(printed.pdf, job.options) };
      job.trace?.mark('finished');
      outcome = 'success';
      return body;
    } catch (error) {
      outcome = outcomeOf(error);
      throw error;
    } finally {
      this.hooks.onRender?.(outcome, (performance.now() - started) / 1000);
    }
  }

  /** Prints the header and footer of a body from renderBody with the given numbers and draws them on it, finished. */
  async decorate(
    body: PrintedBody & { heads: PendingHeads },
    numbering: Numbering,
    tenant?: Tenant,
    priority?: RenderPriority,
    trace?: RenderTrace,
  ): Promise<Uint8Array> {
    const { heads } = body;
    const printed = await this.onHeadsLane(heads.options.timeout_ms, tenant, priority, (page, clock) => printHeads(page, heads, numbering, clock, trace));
    return stampInWorker(body.pdf, printed.overlay, printed.plan, heads.options);
  }

  /**
   * Draws a header and footer on a PDF Quire did not lay out (heads-on-pdf.ts: an office
   * conversion, an uploaded or stored PDF), numbered as given, then finishes it with `finish`.
   */
  async decoratePdf(
    pdf: Uint8Array,
    layout: PdfLayout,
    request: HeadsOnPdf,
    job: { numbering: Numbering; timeoutMs: number; finish: FinishOptions; tenant?: Tenant; priority?: RenderPriority },
  ): Promise<Uint8Array> {
    const printed = await this.onHeadsLane(job.timeoutMs, job.tenant, job.priority, (page, clock) =>
      printHeadsOnPdf(page, layout, request, job.numbering, clock),
    );
    return stampInWorker(pdf, printed.overlay, printed.plan, job.finish);
  }

  /** Holds a slot and an html lane for the header and footer pass, within its own time budget. */
  private async onHeadsLane(
    timeoutMs: number,
    tenant: Tenant | undefined,
    priority: RenderPriority | undefined,
    work: (page: CdpPage, clock: RenderClock) => Promise<PrintedHeads>,
  ): Promise<PrintedHeads> {
    const releaseSlot = await this.slots.acquire(priority, tenant);
    const budget = new Budget(Date.now() + timeoutMs, timeoutMs);
    budget.stage = () => 'printing the header and footer';
    let lease: PageLease | undefined;
    let reusable = false;
    try {
      lease = await budget.run(this.pages.acquire('html', 'real'));
      budget.failWith(lease.page.failed);
      const printed = await budget.run(work(lease.page, lease.clock ?? 'real'));
      reusable = true;
      return printed;
    } catch (error) {
      throw translatePageError(error);
    } finally {
      budget.cancel();
      budget.failWith(undefined);
      const handedBack = lease ? settleWithin(lease.release(reusable), RELEASE_WAIT_MS) : Promise.resolve();
      void handedBack.then(releaseSlot);
      if (!reusable) await handedBack;
    }
  }

  stats(): RendererStats {
    return {
      ...this.slots.stats(),
      version: this.pages.version,
      renderPath: this.pages.renderPath,
      restarts: this.pages.restarts,
      rendersTotal: this.rendersTotal,
    };
  }

  probe(): Promise<boolean> {
    return this.pages.probe();
  }

  /** Stops taking work, waits for in-flight renders (up to timeoutMs), then closes the engine. */
  async close(timeoutMs: number): Promise<void> {
    this.closing = true;
    this.slots.close();
    const deadline = Date.now() + timeoutMs;
    while (this.slots.stats().busy > 0 && Date.now() < deadline) await sleep(50);
    await this.pages.close();
  }

  /**
   * Holds a slot and renders in it, once more on a fresh page if the browser or page crashed under
   * the first try (render()'s comment says why that costs the caller nothing).
   */
  private async printWithRetry(job: RenderJob, heads: 'whole' | 'body'): Promise<Printed> {
    const slot = new HeldSlot(await this.slots.acquire(job.priority, job.tenant));
    job.trace?.mark('admitted');
    const budget = new Budget(Date.now() + job.options.timeout_ms, job.options.timeout_ms);
    try {
      return await this.renderInSlot(job, slot.hold(), budget, heads).catch((error: unknown) => {
        if (!(error instanceof RendererCrashedError) || this.closing) throw error;
        this.hooks.onRetry?.(error.scope);
        return this.renderInSlot(job, slot.hold(), budget, heads).catch((again: unknown) => {
          if (error.scope === 'page' && again instanceof RendererCrashedError && again.scope === 'page') {
            throw new PageCrashedError('the page crashed its renderer on two fresh pages');
          }
          throw again;
        });
      });
    } finally {
      budget.cancel();
      slot.drop();
    }
  }

  /**
   * Renders on a leased page. The slot is freed once the page is handed back (the lane's teardown
   * included), which may be after the PDF is returned: a PDF does not wait for the teardown. With
   * a header or footer, `heads` says whether their print follows here ('whole') or waits for a
   * merge's page numbers ('body').
   */
  private async renderInSlot(job: RenderJob, releaseSlot: () => void, budget: Budget, heads: 'whole' | 'body'): Promise<Printed> {
    const { options, source, trace } = job;
    let stage = 'opening a page';
    budget.stage = () => stage;
    let lease: PageLease | undefined;
    let reusable = false;
    // Page settings this render changed, undone before the page serves another render.
    const undo: (() => Promise<void>)[] = [];
    let recording: { stop(): Promise<void> } | undefined;
    try {
      if (source.kind === 'html' && hasOriginCredentials(options)) {
        throw new RenderInputError('options', 'options.http_headers, cookies, basic_auth and user_agent are only for url renders');
      }
      const clock = this.clockFor(options);
      lease = await budget.run(this.pages.acquire(source.kind, clock));
      const { page } = lease;
      budget.failWith(page.failed);
      if (trace) {
        trace.mark('leased');
        trace.renderPath = { clock: lease.clock ?? clock, mode: this.pages.renderPath.mode, engine: this.pages.version };
        if (wantsVirtualClock(options) && (lease.clock ?? clock) !== 'virtual') trace.warn(WALL_CLOCK_WARNING);
        // Requests and console messages only for a receipt: a trace for the spans needs the marks alone.
        if (trace.detail) recording = await budget.run(startRecording(page.session, trace));
      }
      if (source.kind === 'url' && hasOriginCredentials(options)) undo.push(await budget.run(sendCredentialsToOrigin(page.session, source.url, options)));
      if (job.image) undo.push(await budget.run(prepareCapture(page.session, job.image)));
      stage = 'loading the page';
      await budget.run(page.emulateMedia(options.media));
      const loaded = await budget.run(page.load(source, options.wait_until, lease.clock ?? clock, trace && (() => trace.mark('loaded'))));
      trace?.mark('idle');
      if (source.kind === 'url' && loaded.status !== undefined && loaded.status >= 400) {
        throw new NavigationError(`${source.url} answered HTTP ${loaded.status}`);
      }
      if (options.wait_for) {
        stage = `waiting for ${options.wait_for}`;
        await budget.run(page.waitForSelector(options.wait_for));
      }
      if (options.wait_for_function) {
        stage = 'waiting for wait_for_function';
        await budget.run(page.waitForFunction(options.wait_for_function, Date.now() + budget.remaining()));
      }
      if (options.wait_ms > 0) {
        stage = 'waiting wait_ms';
        await budget.run(page.wait(options.wait_ms));
      }
      trace?.mark('waited');
      if (trace?.detail && job.image) await budget.run(inspectBeforeCapture(page.session, trace));
      const running = job.image ? undefined : headsOf(options);
      let params = toPrintToPdfParams(options);
      let pending: PendingHeads | undefined;
      if (running) {
        stage = 'laying out the header and footer';
        const geometry = geometryOf(options);
        const facts = await budget.run(learnFromPage(page, running, geometry, job.data));
        params = withRoom(params, facts.heights);
        const assets = source.kind === 'html' ? source.assets : undefined;
        const url = source.kind === 'url' ? source.url : undefined;
        pending = { heads: running, facts, geometry, options, assets, data: job.data, url, pageCount: 0, markers: [] };
      }
      stage = job.image ? 'capturing the image' : 'printing';
      const bytes = await budget.run(
        job.image ? page.capture(captureImage(page.session, job.image)) : page.print(params, trace?.detail ? inspectionFor(trace) : undefined),
      );
      trace?.mark('printed');
      // The clock could not be kept exact on this engine (virtual-clock.ts): the receipt says so.
      for (const note of page.clockNotes()) trace?.warn(note);
      if (!pending) {
        reusable = true;
        return { pdf: bytes };
      }
      stage = 'printing the header and footer';
      Object.assign(pending, await budget.run(inspectBody(bytes, pending.facts)));
      // A url render's lane is on the site it rendered: the instances print on an html lane of
      // their own (decorate), as a navigation from there to the render site swaps the page's process.
      if (heads === 'body' || source.kind === 'url') {
        reusable = true;
        return { pdf: bytes, heads: pending };
      }
      const headsClock = lease.clock ?? clock;
      const stamp = await budget.run(inSpan('render.headers', {}, () => printHeads(page, pending, ownNumbering(pending.pageCount), headsClock, trace)));
      reusable = true;
      return { pdf: bytes, stamp };
    } catch (error) {
      if (trace) trace.failedStage = stage;
      throw translatePageError(error);
    } finally {
      budget.failWith(undefined);
      // The recorder's listeners and Runtime go before the page serves anyone else.
      if (recording) await settleWithin(recording.stop(), RELEASE_WAIT_MS);
      // The next render must not send this one's credentials anywhere, nor inherit its viewport.
      if (undo.length > 0) {
        let undone = false;
        await settleWithin(
          Promise.all(undo.map((step) => step())).then(() => {
            undone = true;
          }),
          RELEASE_WAIT_MS,
        );
        reusable &&= undone;
      }
      // A page that will not close must not hold the render slot: give up waiting after a while
      // (the lane is then dropped, not reused).
      const handedBack = lease ? settleWithin(lease.release(reusable), RELEASE_WAIT_MS) : Promise.resolve();
      void handedBack.then(releaseSlot);
      // A failed render answers once its page is gone, so the slot it held is free by then.
      if (!reusable) await handedBack;
    }
  }

  /**
   * Virtual time only where it saves a wait the page does not need: networkidle0's window
   * (pdf-options.ts wait_clock). Other wait_until values keep the wall clock: networkidle2 allows
   * connections in flight, which would hold a virtual clock forever.
   */
  private clockFor(options: PdfOptions): RenderClock {
    return wantsVirtualClock(options) && isVirtual(this.pages.renderPath.mode) ? 'virtual' : 'real';
  }
}

function wantsVirtualClock(options: PdfOptions): boolean {
  return options.wait_until === 'networkidle0' && options.wait_clock === 'virtual';
}

/** A default render that could not take the virtual clock (render-path.ts: the probe or the breaker chose the wall clock). */
const WALL_CLOCK_WARNING =
  "networkidle0 waited on the wall clock, not the page's virtual clock (see /health render_path): timers due after the network-idle window may show, depending on the machine's load";

const RELEASE_WAIT_MS = 5000;

/** Races page work against the render's deadline (and the page's failure, while it has one). */
class Budget {
  private timer: NodeJS.Timeout | undefined;
  private readonly expired: Promise<never>;
  private failed: Promise<never> | undefined;
  /** What the render is doing, for the timeout's message. */
  stage: () => string = () => 'starting';

  constructor(
    private readonly deadline: number,
    timeoutMs: number,
  ) {
    this.expired = new Promise<never>((_, reject) => {
      this.timer = setTimeout(() => reject(new RenderTimeoutError(timeoutMs, this.stage())), Math.max(0, deadline - Date.now()));
    });
    this.expired.catch(() => undefined);
  }

  remaining(): number {
    return Math.max(1, this.deadline - Date.now());
  }

  /** Work run from now on also ends when `failed` rejects (the page crashed or its browser died). */
  failWith(failed: Promise<never> | undefined): void {
    this.failed = failed;
  }

  run<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    return Promise.race(this.failed ? [work, this.expired, this.failed] : [work, this.expired]);
  }

  cancel(): void {
    clearTimeout(this.timer);
  }
}

/**
 * A render slot shared by a render's tries: each try holds it until its page is handed back, and
 * the render itself until it ends; the slot is given back when the last holder lets go.
 */
class HeldSlot {
  private holders = 1;

  constructor(private readonly release: () => void) {}

  hold(): () => void {
    this.holders++;
    let dropped = false;
    return () => {
      if (dropped) return;
      dropped = true;
      this.drop();
    };
  }

  drop(): void {
    if (--this.holders === 0) this.release();
  }
}

/** Turns puppeteer's errors into the renderer's own. */
function translatePageError(error: unknown): Error {
  if (error instanceof RenderTimeoutError || error instanceof NavigationError || error instanceof RenderInputError || error instanceof RendererCrashedError) {
    return error;
  }
  const message = String((error as Error)?.message ?? error);
  if (/Page range exceeds page count|page range/i.test(message)) {
    return new RenderInputError('options.page_ranges', 'options.page_ranges selects pages that the document does not have');
  }
  if (/Target closed|Session closed|Connection closed|browser has disconnected|detached/i.test(message)) {
    return new RendererCrashedError('the browser closed during the render');
  }
  return error as Error;
}

function outcomeOf(error: unknown): RenderOutcome {
  if (error instanceof RenderTimeoutError) return 'timeout';
  if (error instanceof NavigationError) return 'navigation_failed';
  if (error instanceof RenderInputError) return 'invalid_input';
  if (error instanceof RendererCrashedError) return 'crashed';
  if (error instanceof PageCrashedError) return 'page_crashed';
  if ((error as Error)?.name === 'RendererBusyError') return 'busy';
  // Thrown by the source's checkRedirect (the network guard), which render/ does not import.
  if ((error as Error)?.name === 'BlockedUrlError') return 'blocked';
  return 'error';
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
