// The header and footer pass of a render, between its body print and the stamp: how many pages
// the body has and where its sections landed, then the one print of every header and footer
// instance on a lane's fresh document (header-overlay.ts). A render without a header or footer
// never comes here.

import { findMarkersInWorker } from '../pdf/finisher.ts';
import { countPages } from '../pdf/page-count.ts';
import type { StampPlan } from '../pdf/stamp-plan.ts';
import type { CdpPage, PageInspection, RenderClock } from './cdp-page.ts';
import type { RenderTrace } from './render-trace.ts';
import { buildOverlay, overlayAssets, type Numbering, type Overlay } from './header-overlay.ts';
import type { Heads, HeadsGeometry, PageFacts } from './header-plan.ts';
import type { PdfOptions } from './pdf-options.ts';
import type { AssetResolver } from './render-source.ts';

/** A printed body's header and footer, waiting for their page numbers. */
export interface PendingHeads {
  heads: Heads;
  facts: PageFacts;
  geometry: HeadsGeometry;
  options: PdfOptions;
  /** The body's assets (a template's), which the header and footer may name too. */
  assets?: AssetResolver;
  data: unknown;
  url?: string;
  pageCount: number;
  /** Per section, the 0-based page it starts on (-1: not printed). */
  markers: number[];
}

export interface PrintedHeads {
  overlay: Uint8Array;
  plan: StampPlan;
}

/** The body's page count and its sections' pages: read from the file only when sections are used. */
export async function inspectBody(pdf: Uint8Array, facts: PageFacts): Promise<{ pageCount: number; markers: number[] }> {
  if (!facts.markerPrefix) {
    const pageCount = countPages(pdf);
    if (pageCount !== undefined) return { pageCount, markers: [] };
  }
  const found = await findMarkersInWorker(pdf, facts.markerPrefix ?? 'https://none.quire.invalid/');
  return { pageCount: found.pageCount, markers: found.markers };
}

/** Prints every header and footer instance of the body on the page (a fresh document), and the plan to draw them. */
export async function printHeads(page: CdpPage, pending: PendingHeads, numbering: Numbering, clock: RenderClock, trace?: RenderTrace): Promise<PrintedHeads> {
  const overlay = buildOverlay({
    heads: pending.heads,
    facts: pending.facts,
    geometry: pending.geometry,
    markers: pending.markers,
    numbering,
    data: pending.data,
    date: new Date().toISOString().slice(0, 10),
    url: pending.url,
  });
  return printOverlay(page, overlay, pending.assets, clock, trace);
}

/** Loads an overlay document (header-overlay.ts) on the page and prints it; a receipt's trace learns which boxes cut their content off. */
export async function printOverlay(
  page: CdpPage,
  overlay: Overlay,
  assets: AssetResolver | undefined,
  clock: RenderClock,
  trace?: RenderTrace,
): Promise<PrintedHeads> {
  await loadForHeads(page, overlay.html, overlayAssets(overlay, assets), clock);
  return { overlay: await page.print(overlay.print, trace?.detail ? clippedBoxes(trace) : undefined), plan: overlay.plan };
}

/**
 * Read with the print's own wait for fonts: a box whose content is taller than the box (a fixed
 * height too small) has it cut off, which the receipt says.
 */
function clippedBoxes(trace: RenderTrace): PageInspection {
  return {
    expression: `(() => { const out = {}; for (const box of document.querySelectorAll('.q-box')) { if (box.scrollHeight > box.clientHeight + 1) { const side = box.dataset.side; const seen = out[side]; if (!seen || box.scrollHeight > seen[0]) out[side] = [box.scrollHeight, box.clientHeight]; } } return out; })()`,
    onValue(value) {
      for (const [side, [content, box]] of Object.entries((value ?? {}) as Record<string, [number, number]>))
        trace.warn(
          `options.${side} is cut off: its content is ${Math.ceil(content)}px tall in a box of ${Math.round(box)}px (make options.${side}.height larger, or leave it out to fit the content)`,
        );
    },
  };
}

/**
 * Loads a document of the header and footer pass. Images and fonts must be in before printing:
 * 'load' on the wall clock, or network idle on a lane that runs on the virtual clock (it stays on it).
 */
export function loadForHeads(page: CdpPage, html: string, assets: AssetResolver | undefined, clock: RenderClock): Promise<unknown> {
  return page.load({ kind: 'html', html, assets }, clock === 'virtual' ? 'networkidle0' : 'load', clock);
}
