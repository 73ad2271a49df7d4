// Renders HTML or a URL to PDF bytes on a PageSource, behind RenderSlots. One time budget
// (options.timeout_ms) covers loading, waits and printing. Knows nothing of keys, plans or HTTP.

import { NavigationError, RenderInputError, RenderTimeoutError, RendererCrashedError } from './errors.ts';
import type { RenderClock } from './cdp-page.ts';
import type { PageLease, PageSource } from './page-source.ts';
import type { RenderSource } from './render-source.ts';
import type { PdfOptions } from './pdf-options.ts';
import { toPrintToPdfParams } from './print-params.ts';
import { RenderSlots, type RenderPriority, type SlotStats, type Tenant } from './render-slots.ts';
import { settleWithin } from './settle-within.ts';
import { hasOriginCredentials, sendCredentialsToOrigin } from './origin-credentials.ts';
import { finishPdf } from '../pdf/finisher.ts';
import { captureImage, prepareCapture, type ImageCapture } from './image-capture.ts';
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
  /** Filled in with what the render did (its receipt); without one nothing is recorded. */
  trace?: RenderTrace;
}

export type RenderOutcome = 'success' | 'timeout' | 'navigation_failed' | 'invalid_input' | 'crashed' | 'busy' | 'blocked' | 'error';

export interface RendererHooks {
  onRender?: (outcome: RenderOutcome, seconds: number) => void;
}

export interface RenderLimits {
  concurrency: number;
  queueSize: number;
  queueTimeoutMs: number;
}

export interface RendererStats extends SlotStats {
  version: string;
  restarts: number;
  rendersTotal: number;
  /** The clock a default render (networkidle0, wait_clock virtual) runs on: virtual where the engine has it. */
  defaultClock: RenderClock;
}

export class Renderer {
  private rendersTotal = 0;
  private averageMs = 500;

  private readonly slots: RenderSlots;

  constructor(
    private readonly pages: PageSource,
    limits: RenderLimits,
    private readonly hooks: RendererHooks = {},
  ) {
    this.slots = new RenderSlots(limits.concurrency, limits.queueSize, limits.queueTimeoutMs, () => this.averageMs);
  }

  /** Renders one job to PDF bytes; throws the errors of errors.ts. */
  async render(job: RenderJob): Promise<Uint8Array> {
    const started = performance.now();
    let outcome: RenderOutcome = 'error';
    try {
      const releaseSlot = await this.slots.acquire(job.priority, job.tenant);
      job.trace?.mark('admitted');
      const printed = await this.renderInSlot(job, releaseSlot);
      // Metadata, watermark and encryption need no browser: they run on the PDF worker while the
      // page is handed back.
      const pdf = job.image ? printed : await finishPdf(printed, job.options);
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

  stats(): RendererStats {
    return {
      ...this.slots.stats(),
      version: this.pages.version,
      restarts: this.pages.restarts,
      rendersTotal: this.rendersTotal,
      defaultClock: this.pages.supportsVirtualTime ? 'virtual' : 'real',
    };
  }

  probe(): Promise<boolean> {
    return this.pages.probe();
  }

  /** Stops taking work, waits for in-flight renders (up to timeoutMs), then closes the engine. */
  async close(timeoutMs: number): Promise<void> {
    this.slots.close();
    const deadline = Date.now() + timeoutMs;
    while (this.slots.stats().busy > 0 && Date.now() < deadline) await sleep(50);
    await this.pages.close();
  }

  /**
   * Renders on a leased page. The slot is freed once the page is handed back (the lane's teardown
   * included), which may be after the PDF is returned: a PDF does not wait for the teardown.
   */
  private async renderInSlot(job: RenderJob, releaseSlot: () => void): Promise<Uint8Array> {
    const { options, source, trace } = job;
    let stage = 'opening a page';
    const budget = new Budget(Date.now() + options.timeout_ms, options.timeout_ms, () => stage);
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
      if (trace) {
        trace.mark('leased');
        trace.renderPath = { clock, engine: this.pages.version };
        recording = await budget.run(startRecording(page.session, trace));
      }
      if (source.kind === 'url' && hasOriginCredentials(options)) undo.push(await budget.run(sendCredentialsToOrigin(page.session, source.url, options)));
      if (job.image) undo.push(await budget.run(prepareCapture(page.session, job.image)));
      stage = 'loading the page';
      await budget.run(page.emulateMedia(options.media));
      const loaded = await budget.run(page.load(source, options.wait_until, clock, trace && (() => trace.mark('loaded'))));
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
      if (trace && job.image) await budget.run(inspectBeforeCapture(page.session, trace));
      stage = job.image ? 'capturing the image' : 'printing';
      const bytes = await budget.run(
        job.image ? captureImage(page.session, job.image) : page.print(toPrintToPdfParams(options), trace && inspectionFor(trace)),
      );
      trace?.mark('printed');
      reusable = true;
      return bytes;
    } catch (error) {
      if (trace) trace.failedStage = stage;
      throw translatePageError(error);
    } finally {
      budget.cancel();
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
    return options.wait_until === 'networkidle0' && options.wait_clock === 'virtual' && this.pages.supportsVirtualTime ? 'virtual' : 'real';
  }
}

const RELEASE_WAIT_MS = 5000;

/** Races page work against the render's deadline. */
class Budget {
  private timer: NodeJS.Timeout | undefined;
  private readonly expired: Promise<never>;

  constructor(
    private readonly deadline: number,
    timeoutMs: number,
    stage: () => string,
  ) {
    this.expired = new Promise<never>((_, reject) => {
      this.timer = setTimeout(() => reject(new RenderTimeoutError(timeoutMs, stage())), Math.max(0, deadline - Date.now()));
    });
    this.expired.catch(() => undefined);
  }

  remaining(): number {
    return Math.max(1, this.deadline - Date.now());
  }

  run<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    return Promise.race([work, this.expired]);
  }

  cancel(): void {
    clearTimeout(this.timer);
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
  if ((error as Error)?.name === 'RendererBusyError') return 'busy';
  // Thrown by the source's checkRedirect (the network guard), which render/ does not import.
  if ((error as Error)?.name === 'BlockedUrlError') return 'blocked';
  return 'error';
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
