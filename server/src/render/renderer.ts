// Renders HTML or a URL to PDF bytes on a PageSource, behind RenderSlots. One time budget
// (options.timeout_ms) covers loading, waits and printing. Knows nothing of keys, plans or HTTP.
// The render on its leased page is render-in-slot.ts; this class holds the slot, retries a render
// whose browser or page crashed, finishes the PDF and runs the header lane of merges and PDFs.

import { PageCrashedError, RendererCrashedError } from './errors.ts';
import type { CdpPage, RenderClock } from './cdp-page.ts';
import type { PageLease, PageSource } from './page-source.ts';
import { RenderSlots, type RenderPriority, type Tenant } from './render-slots.ts';
import { finishPdf, stampInWorker } from '../pdf/finisher.ts';
import { printHeads, type PendingHeads, type PrintedHeads } from './header-pass.ts';
import type { Numbering } from './header-overlay.ts';
import { ownNumbering } from './numbering.ts';
import { printHeadsOnPdf, type HeadsOnPdf } from './heads-on-pdf.ts';
import type { PdfLayout } from '../pdf/pdf-layout.ts';
import type { FinishOptions } from '../pdf/finish-options.ts';
import { inSpan } from '../telemetry/spans.ts';
import type { RenderTrace } from './render-trace.ts';
import type { PrintedBody, RenderJob, RendererHooks, RendererStats, RenderLimits, RenderOutcome } from './render-job.ts';
import { Budget, HeldSlot, handBack } from './render-budget.ts';
import { outcomeOf, translatePageError } from './page-errors.ts';
import { renderInSlot, type Printed } from './render-in-slot.ts';

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
  render(job: RenderJob): Promise<Uint8Array> {
    return this.measured(true, async () => {
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
      return pdf;
    });
  }

  /**
   * Prints a merge source's body: finished (metadata, watermark) unless it has a header or
   * footer, which then waits in `heads` for decorate() with the merged page numbers.
   */
  renderBody(job: RenderJob): Promise<PrintedBody> {
    return this.measured(false, async () => {
      const printed = await this.printWithRetry(job, 'body');
      const body: PrintedBody = printed.heads ? { pdf: printed.pdf, heads: printed.heads } : { pdf: await finishPdf(printed.pdf, job.options) };
      job.trace?.mark('finished');
      return body;
    });
  }

  /**
   * Runs a render for the hooks (metrics: its outcome and seconds, whatever happens); a whole
   * render that succeeds also moves the renderer's count and average (/health), a merge body not.
   */
  private async measured<T>(whole: boolean, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    let outcome: RenderOutcome = 'error';
    try {
      const result = await work();
      outcome = 'success';
      return result;
    } catch (error) {
      outcome = outcomeOf(error);
      throw error;
    } finally {
      const ms = performance.now() - started;
      if (outcome === 'success' && whole) {
        this.rendersTotal++;
        this.averageMs = this.averageMs * 0.9 + ms * 0.1;
      }
      this.hooks.onRender?.(outcome, ms / 1000);
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
      await handBack(lease, reusable, releaseSlot);
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
      return await renderInSlot(this.pages, job, slot.hold(), budget, heads).catch((error: unknown) => {
        if (!(error instanceof RendererCrashedError) || this.closing) throw error;
        this.hooks.onRetry?.(error.scope);
        return renderInSlot(this.pages, job, slot.hold(), budget, heads).catch((again: unknown) => {
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
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
