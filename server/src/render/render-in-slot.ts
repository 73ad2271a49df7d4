// The render in a slot: on a leased page, the one pass from opening the page through loading,
// the waits, the header and footer layout, and printing (or capturing), then handing the page back.
// Apart from the Renderer (renderer.ts), which holds the slot, retries a crash and finishes the PDF.

import { NavigationError, RenderInputError } from './errors.ts';
import type { RenderClock } from './cdp-page.ts';
import type { PageLease, PageSource } from './page-source.ts';
import { capturesOnVirtualClock, isVirtual } from './render-path.ts';
import type { PdfOptions } from './pdf-options.ts';
import { toPrintToPdfParams } from './print-params.ts';
import { settleWithin } from './settle-within.ts';
import { hasOriginCredentials, sendCredentialsToOrigin } from './origin-credentials.ts';
import { captureImage, prepareCapture } from './image-capture.ts';
import { headsOf, geometryOf, learnFromPage, withRoom } from './header-plan.ts';
import { inspectBody, printHeads, type PendingHeads, type PrintedHeads } from './header-pass.ts';
import { ownNumbering } from './numbering.ts';
import { insertToc, numberToc, wantsToc } from './toc-pass.ts';
import { inSpan } from '../telemetry/spans.ts';
import { inspectBeforeCapture, inspectionFor, startRecording } from './render-trace.ts';
import { handBack, RELEASE_WAIT_MS, type Budget } from './render-budget.ts';
import { translatePageError } from './page-errors.ts';
import type { RenderJob } from './render-job.ts';
import { creatorAsQuire } from '../pdf/creator.ts';

/** What a render's time in the slot produced: the bytes, and the header and footer printed (or waiting). */
export interface Printed {
  pdf: Uint8Array;
  stamp?: PrintedHeads;
  heads?: PendingHeads;
}

/**
 * Renders on a leased page. The slot is freed once the page is handed back (the lane's teardown
 * included), which may be after the PDF is returned: a PDF does not wait for the teardown. With
 * a header or footer, `heads` says whether their print follows here ('whole') or waits for a
 * merge's page numbers ('body').
 */
export async function renderInSlot(pages: PageSource, job: RenderJob, releaseSlot: () => void, budget: Budget, heads: 'whole' | 'body'): Promise<Printed> {
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
    const clock = clockFor(options, pages);
    lease = await budget.run(pages.acquire(source.kind, clock, job.image ? 'capture' : 'print'));
    const { page } = lease;
    budget.failWith(page.failed);
    if (trace) {
      trace.mark('leased');
      trace.renderPath = { clock: lease.clock ?? clock, mode: pages.renderPath.mode, engine: pages.version };
      if (wantsVirtualClock(options) && (lease.clock ?? clock) !== 'virtual')
        trace.warn(job.image && clock === 'virtual' && !capturesOnVirtualClock(pages.renderPath.mode) ? IMAGE_WALL_CLOCK_WARNING : WALL_CLOCK_WARNING);
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
      if (!(await budget.run(page.waitForFunction(options.wait_for_function, Date.now() + budget.remaining())))) budget.expire();
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
    // The entries go in first: the header's section markers and measures then see the final page.
    let toc: string[] | undefined;
    if (!job.image && wantsToc(source, options)) {
      stage = 'laying out the table of contents';
      toc = await budget.run(insertToc(page, options.toc));
    }
    if (running) {
      stage = 'laying out the header and footer';
      const geometry = geometryOf(options);
      const facts = await budget.run(learnFromPage(page, running, geometry, job.data));
      params = withRoom(params, facts.heights);
      const assets = source.kind === 'html' ? source.assets : undefined;
      const url = source.kind === 'url' ? source.url : undefined;
      pending = { heads: running, facts, geometry, options, assets, data: job.data, url, pageCount: 0, markers: [] };
    }
    if (toc) {
      stage = 'numbering the table of contents';
      await budget.run(numberToc(page, toc, params));
    }
    stage = job.image ? 'capturing the image' : 'printing';
    const bytes = await budget.run(
      job.image
        ? page.capture(captureImage(page.session, job.image))
        : page.print(params, trace?.detail ? inspectionFor(trace) : undefined).then(creatorAsQuire),
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
    // The slot is free once the page is back (render-budget.ts handBack).
    await handBack(lease, reusable, releaseSlot);
  }
}

/**
 * Virtual time only where it saves a wait the page does not need: networkidle0's window
 * (pdf-options.ts wait_clock). Other wait_until values keep the wall clock: networkidle2 allows
 * connections in flight, which would hold a virtual clock forever.
 */
function clockFor(options: PdfOptions, pages: PageSource): RenderClock {
  return wantsVirtualClock(options) && isVirtual(pages.renderPath.mode) ? 'virtual' : 'real';
}

function wantsVirtualClock(options: PdfOptions): boolean {
  return options.wait_until === 'networkidle0' && options.wait_clock === 'virtual';
}

/** A default render that could not take the virtual clock (render-path.ts: the probe or the breaker chose the wall clock). */
const WALL_CLOCK_WARNING =
  "networkidle0 waited on the wall clock, not the page's virtual clock (see /health render_path): timers due after the network-idle window may show, depending on the machine's load";

/** An image on an engine whose virtual clock cannot draw its frame (render-path.ts capturesOnVirtualClock). */
const IMAGE_WALL_CLOCK_WARNING =
  "networkidle0 waited on the wall clock: this engine has no begin-frame control, and a screenshot on the page's held virtual clock may never come, so images take the wall clock; timers due after the network-idle window may show, depending on the machine's load";
