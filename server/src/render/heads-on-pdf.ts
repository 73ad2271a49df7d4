// A header and footer on a PDF Quire did not lay out: an office conversion, an uploaded or stored
// PDF in a merge. Its margins are not ours to grow, so the boxes sit at header_footer_margin from
// the edges of each page (turned pages included) and either the page's content shrinks, centred,
// just enough to clear them ('shrink', the default: nothing is ever covered), or they are drawn in
// the page's own margin ('margin'). Sections are the document's bookmarks, the title its own (or
// the file's name). The instances print as for a render (header-overlay.ts) and are drawn by the
// stamp with one matrix per box and page (pdf/stamp.ts placements).

import type { PdfLayout, PageFrame } from '../pdf/pdf-layout.ts';
import type { Matrix, Placement } from '../pdf/stamp-plan.ts';
import type { CdpPage, RenderClock } from './cdp-page.ts';
import { cssLengthToPx, parseMargin, type Margins } from './css-length.ts';
import { RenderInputError } from './errors.ts';
import type { HeaderFooterFit } from './header-options.ts';
import type { Running } from './header-options.ts';
import { buildOverlay, overlayAssets, type Numbering } from './header-overlay.ts';
import { loadForHeads, type PrintedHeads } from './header-pass.ts';
import { inPage, type Heads, type PageFacts } from './header-plan.ts';
import type { AssetResolver } from './render-source.ts';

export interface HeadsOnPdf {
  heads: Heads;
  fit: HeaderFooterFit;
  /** CSS margin: the boxes' distance from the page's edges. */
  margin: string;
  data?: unknown;
  /** The title variable when the PDF has none of its own (an office file's name). */
  title?: string;
  assets?: AssetResolver;
  /** Where the options are, for errors: "options" or "sources[2].office.options". */
  field: string;
}

/** Below this the content would be too small to read: a header and footer that need more are refused. */
const MIN_SHRINK = 0.5;
const PX_PER_PT = 96 / 72;

/** Prints every instance on the page (a fresh lane document) and answers the overlay with its placements. */
export async function printHeadsOnPdf(page: CdpPage, layout: PdfLayout, request: HeadsOnPdf, numbering: Numbering, clock: RenderClock): Promise<PrintedHeads> {
  const margins = parseMargin(request.margin)!;
  const views = layout.pages.map(viewOf);
  const boxWidths = views.map((view) => view.width * PX_PER_PT - margins.left - margins.right);
  const narrowest = Math.min(...boxWidths);
  if (!(narrowest >= 10))
    throw new RenderInputError(
      `${request.field}.header_footer_margin`,
      `${request.field}.header_footer_margin leaves no width for a header or footer on a page ${Math.round(Math.min(...views.map((view) => view.width)))}pt wide`,
    );
  const sections = layout.sections.map((section) => section.text);
  const title = layout.title || request.title || '';
  const overlayFor = (heights: PageFacts['heights']) =>
    buildOverlay({
      heads: request.heads,
      facts: { heights, title, fontFaces: [], sections },
      geometry: { paperHeight: 0, margins, boxWidth: narrowest },
      markers: layout.sections.map((section) => section.page),
      numbering,
      data: request.data,
      date: new Date().toISOString().slice(0, 10),
      boxWidths,
    });
  // Heights not given are measured on the instances themselves, in the overlay as loaded (a box
  // is laid out at 1px first, then at its content's height).
  const given = givenHeights(request.heads);
  const provisional = { header: request.heads.header && (given.header ?? 1), footer: request.heads.footer && (given.footer ?? 1) };
  const first = overlayFor(provisional);
  await loadForHeads(page, first.html, overlayAssets(first, request.assets), clock);
  const heights = { ...provisional, ...(await measureInstances(page, request.heads, given)) };
  const { scale } = roomOf(views, margins, heights, request);
  const overlay = overlayFor(heights);
  if (overlay.html !== first.html) {
    // The same instances at their final heights, unless a side measured empty: it is left out, so the instances change.
    const emptySide = (['header', 'footer'] as const).some((side) => request.heads[side] && !heights[side]);
    if (emptySide) await loadForHeads(page, overlay.html, overlayAssets(overlay, request.assets), clock);
    else await inPage(page, `(${SET_HEIGHTS})(${JSON.stringify(heights)})`);
  }
  overlay.plan.placements = views.map((view) => placementOf(view, margins, heights, request.fit === 'shrink' ? scale : 1));
  return { overlay: await page.print(overlay.print), plan: overlay.plan };
}

function givenHeights(heads: Heads): PageFacts['heights'] {
  const given = (running: Running | undefined) => (running?.height === undefined ? undefined : cssLengthToPx(running.height));
  return { header: given(heads.header), footer: given(heads.footer) };
}

/** Runs in the overlay: each side's boxes at their content's height, the tallest per side. */
const MEASURE_INSTANCES = `async (sides) => {
  await document.fonts.ready;
  const out = {};
  for (const box of document.querySelectorAll('.q-box')) {
    const side = box.dataset.side;
    if (!sides.includes(side)) continue;
    box.style.height = 'auto';
    out[side] = Math.max(out[side] || 0, Math.ceil(box.getBoundingClientRect().height));
  }
  return out;
}`;

/** Runs in the overlay: every box of a side at its final height. */
const SET_HEIGHTS = `(heights) => {
  for (const box of document.querySelectorAll('.q-box')) if (heights[box.dataset.side]) box.style.height = heights[box.dataset.side] + 'px';
}`;

async function measureInstances(page: CdpPage, heads: Heads, given: PageFacts['heights']): Promise<PageFacts['heights']> {
  const sides = (['header', 'footer'] as const).filter((side) => heads[side] && given[side] === undefined);
  if (sides.length === 0) return {};
  const measured = await inPage<PageFacts['heights']>(page, `(${MEASURE_INSTANCES})(${JSON.stringify(sides)})`);
  return Object.fromEntries(sides.map((side) => [side, measured[side] ?? 0]));
}

/** A page as shown: its width and height after /Rotate, and the matrix from shown coordinates to its user space. */
interface View {
  width: number;
  height: number;
  toUser: Matrix;
}

export function viewOf(frame: PageFrame): View {
  const { x, y, width: w, height: h } = frame;
  switch (frame.rotate) {
    case 90:
      return { width: h, height: w, toUser: [0, 1, -1, 0, x + w, y] };
    case 180:
      return { width: w, height: h, toUser: [-1, 0, 0, -1, x + w, y + h] };
    case 270:
      return { width: h, height: w, toUser: [0, -1, 1, 0, x, y + h] };
    default:
      return { width: w, height: h, toUser: [1, 0, 0, 1, x, y] };
  }
}

/**
 * How far content shrinks so the boxes clear it on every page (one scale for the document, so
 * its pages keep one size); refuses boxes that leave too little of a page.
 */
function roomOf(views: View[], margins: Margins, heights: PageFacts['heights'], request: HeadsOnPdf): { scale: number } {
  let scale = 1;
  for (const view of views) {
    const height = view.height * PX_PER_PT;
    const taken = bandOf('header', margins, heights) + bandOf('footer', margins, heights);
    const left = request.fit === 'shrink' ? (height - taken) / height : taken < height ? 1 : 0;
    if (left >= (request.fit === 'shrink' ? MIN_SHRINK : 1e-6)) {
      scale = Math.min(scale, left);
      continue;
    }
    const side = (heights.header ?? 0) >= (heights.footer ?? 0) ? 'header' : 'footer';
    throw new RenderInputError(
      `${request.field}.${side}`,
      request.fit === 'shrink'
        ? `${request.field}.${side} is ${Math.round(heights[side] ?? 0)}px tall: with header_footer_margin${heights.header && heights.footer ? ' and the other box' : ''} it would shrink a page ${Math.round(height)}px tall to less than half its size`
        : `${request.field}.${side} is ${Math.round(heights[side] ?? 0)}px tall: with header_footer_margin${heights.header && heights.footer ? ' and the other box' : ''} it does not fit on a page ${Math.round(height)}px tall`,
    );
  }
  return { scale };
}

/** The band a box takes from the page's edge (its margin and its height), in CSS px; 0 without the box. */
function bandOf(side: 'header' | 'footer', margins: Margins, heights: PageFacts['heights']): number {
  const height = heights[side] ?? 0;
  if (height <= 0) return 0;
  return (side === 'header' ? margins.top : margins.bottom) + height;
}

/** The matrices that draw this page's boxes and move its content, in its user space (points). */
export function placementOf(view: View, margins: Margins, heights: PageFacts['heights'], scale: number): Placement {
  const pt = (px: number) => px / PX_PER_PT;
  const placement: Placement = {};
  if (heights.header) placement.header = multiply([1, 0, 0, 1, pt(margins.left), view.height - pt(margins.top) - pt(heights.header)], view.toUser);
  if (heights.footer) placement.footer = multiply([1, 0, 0, 1, pt(margins.left), pt(margins.bottom)], view.toUser);
  if (scale < 1) {
    // Shown coordinates: scaled about the page's centre line, its bottom lifted over the footer's band.
    const shown: Matrix = [scale, 0, 0, scale, (view.width * (1 - scale)) / 2, pt(bandOf('footer', margins, heights))];
    placement.content = multiply(multiply(invert(view.toUser), shown), view.toUser);
  }
  return placement;
}

/** `first` then `second`, as PDF matrices compose (a point is taken through first, then second). */
export function multiply([a, b, c, d, e, f]: Matrix, [A, B, C, D, E, F]: Matrix): Matrix {
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

function invert([a, b, c, d, e, f]: Matrix): Matrix {
  const det = a * d - b * c;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}
