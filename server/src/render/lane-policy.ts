// The isolation rules every PageSource follows for its lanes (a lane: one page a worker keeps),
// shared by the headless source (chromium-page-source.ts) and the desktop app's Electron source
// so both engines isolate renders the same way. How a lane is opened and closed is each source's own.

import type { CdpPage, CdpPageOptions } from './cdp-page.ts';
import type { CdpSession } from './cdp-session.ts';
import type { RenderSource } from './render-source.ts';

/**
 * Renders an html lane serves before its context (headless) or partition (Electron) is replaced,
 * so whatever a fresh origin per render does not reach cannot accumulate.
 */
export const LANE_RENDERS = 100;

/**
 * How long a lane's teardown may take. A page that keeps its renderer busy (a `for(;;)` started
 * when the PDF was taken) never lets the teardown finish: its lane is then closed, which ends the
 * renderer process, rather than handed to the next render.
 */
export const TEARDOWN_WAIT_MS = 2000;

/**
 * How far a lane's page clock may stand ahead of the wall clock when the lane is handed back. A
 * page's virtual clock is set to the wall clock at each render's start (virtual-clock.ts
 * startAtWallTime) but cannot go back: renders sent faster than the 500 virtual ms each spends run
 * it ahead (~400 ms per render back to back: bench/experiments/vt-wall-clock.ts), so past this the
 * lane is replaced and the next render's page reads the time within a second (issue 39).
 */
export const CLOCK_LEAD_LIMIT_MS = 500;

/**
 * How a lane's page is set up for its kind of source. An html lane, once its teardown put the next
 * render's empty document in place (cdp-page.ts clear: the previous document is gone, the next has
 * run no script), wipes cookies and empties the session history (which would let the page count
 * earlier renders or go back to one) and window.name (which belongs to the tab, not the document).
 * A url lane loads a document that is not ours to prepare: it is used once, and reports the
 * document's status.
 */
export function lanePageOptions(kind: RenderSource['kind'], session: CdpSession): CdpPageOptions {
  if (kind === 'url') return { trackDocumentStatus: true };
  return {
    onFreshDocument: () =>
      Promise.all([
        session.send('Network.clearBrowserCookies'),
        session.send('Page.resetNavigationHistory'),
        session.send('Runtime.evaluate', { expression: "window.name = ''" }),
      ]).then(() => undefined),
  };
}

/** Whether a released lane may serve another render: html lanes only, after a clean render, until worn out. */
export function isLaneReusable(kind: RenderSource['kind'], renderSucceeded: boolean, renders: number): boolean {
  return kind === 'html' && renderSucceeded && renders < LANE_RENDERS;
}

/**
 * Ends a render's document before its lane goes back to the idle pool, so nothing of it runs while
 * the lane waits or once the next render starts (its timers, workers, pending fetches; popups are
 * the source's to close). The navigation that ends it goes to the next render's empty document, so
 * the next render needs no navigation of its own (cdp-page.ts clear). Resolves false when the
 * page did not answer within TEARDOWN_WAIT_MS, or its clock ran more than CLOCK_LEAD_LIMIT_MS ahead
 * of the wall clock: the source must then close the lane instead of reusing it.
 */
export function tearDownLane(page: CdpPage): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), TEARDOWN_WAIT_MS);
    page
      .clear()
      .then(async () => resolve((await page.clockLead()) <= CLOCK_LEAD_LIMIT_MS))
      .catch(() => resolve(false))
      .finally(() => clearTimeout(timer));
  });
}
