// The isolation rules every PageSource follows for its lanes (a lane: one page a worker keeps),
// shared by the headless source (chromium-page-source.ts) and the desktop app's Electron source
// so both engines isolate renders the same way. How a lane is opened and closed is each source's own.

import type { CdpPageOptions, CdpSession } from './cdp-page.ts';
import type { RenderSource } from './page-source.ts';

/**
 * Renders an html lane serves before its context (headless) or partition (Electron) is replaced,
 * so whatever a fresh origin per render does not reach cannot accumulate.
 */
export const LANE_RENDERS = 100;

/**
 * How a lane's page is set up for its kind of source. An html lane wipes cookies when the gate is
 * requested (render-document.ts: the previous document is gone, this one has run no script). A url
 * lane loads a document that is not ours to gate: it is used once, and reports the document's status.
 */
export function lanePageOptions(kind: RenderSource['kind'], session: CdpSession): CdpPageOptions {
  if (kind === 'url') return { trackDocumentStatus: true };
  return { onGate: () => session.send('Network.clearBrowserCookies').then(() => undefined) };
}

/** Whether a released lane may serve another render: html lanes only, after a clean render, until worn out. */
export function isLaneReusable(kind: RenderSource['kind'], renderSucceeded: boolean, renders: number): boolean {
  return kind === 'html' && renderSucceeded && renders < LANE_RENDERS;
}
