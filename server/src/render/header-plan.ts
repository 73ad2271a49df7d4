// What a render with options.header / options.footer learns from its body page before printing
// it: the box heights (given, or measured in the page, where the page's @font-face fonts and the
// template's assets are at hand), the page title, the page's @font-face rules for the second
// print, and the section headings, each marked with an invisible link whose page the printed PDF
// tells (pdf/stamp.ts findMarkers). Also the margins that make room for the boxes.

import { randomBytes } from 'node:crypto';
import type { Protocol } from 'puppeteer-core';
import type { CdpPage } from './cdp-page.ts';
import { cssLengthToPx, parseMargin, type Margins } from './css-length.ts';
import { RenderInputError } from './errors.ts';
import { RENDER_SITE } from './render-document.ts';
import { normalizeRunning, variantsOf, type Running } from './header-options.ts';
import { paperSizePoints, type PdfOptions } from './pdf-options.ts';
import { expandRunning } from './header-variables.ts';

export interface Heads {
  header?: Running;
  footer?: Running;
}

/** The header and footer a render asks for, or undefined when it asks for neither (no second pass then). */
export function headsOf(options: Pick<PdfOptions, 'header' | 'footer'>): Heads | undefined {
  const header = normalizeRunning(options.header);
  const footer = normalizeRunning(options.footer);
  return header || footer ? { header, footer } : undefined;
}

/** Whether any variant uses the section variable, so the body needs section markers. */
export function usesSections(heads: Heads): boolean {
  return [heads.header, heads.footer].some((running) => running !== undefined && variantsOf(running).some((html) => /\bsection\b/.test(html)));
}

/** The default look of a header or footer box: readable, not Chromium's tiny default (docs/api.md#headers-and-footers). */
export const BOX_CSS =
  'all: initial; display: flow-root; box-sizing: border-box; font-family: Arial, "Liberation Sans", "WenQuanYi Zen Hei", "DejaVu Sans", sans-serif; font-size: 10pt; line-height: 1.25; color: #000;';

/** The paper, margins and box width of a render, in CSS pixels, as printed (landscape applied). */
export interface HeadsGeometry {
  paperHeight: number;
  margins: Margins;
  boxWidth: number;
}

export function geometryOf(options: PdfOptions): HeadsGeometry {
  const paper = paperSizePoints(options)!;
  const [width, height] = (options.landscape ? [paper.height, paper.width] : [paper.width, paper.height]).map((points) => (points * 96) / 72) as [
    number,
    number,
  ];
  const margins = parseMargin(options.margin)!;
  return { paperHeight: height, margins, boxWidth: Math.max(1, width - margins.left - margins.right) };
}

/** What the body page told: heights in CSS px, the title, the @font-face rules, the section texts and their marker prefix. */
export interface PageFacts {
  heights: { header?: number; footer?: number };
  title: string;
  fontFaces: string[];
  sections: string[];
  markerPrefix?: string;
}

interface Collected {
  title: string;
  fontFaces: string[];
  sections: string[];
}

/**
 * Runs in the body page: collects the title and the @font-face rules (URLs made absolute, or
 * root-relative on an html render's own origin so a template's fonts come from its assets in the
 * second print too, which has an origin of its own). A font on another origin than that print's
 * would need CORS there, so the ones a header or footer names (its family appears in their HTML)
 * are fetched here, by the page (same origin for a url render, through the network guard), and
 * handed over as data: URIs, at most 8 MB in all; one that cannot be fetched keeps its URL (and
 * falls back as a font that fails to load does). Then marks each section: the elements marked
 * data-section, or else every heading. A marker is a 1px absolutely positioned link at the start
 * of the element: it takes no room and Chromium prints it as a link annotation on the page where
 * the element starts.
 */
const COLLECT = `async ({ prefix, used }) => {
  const out = { title: document.title || '', fontFaces: [], sections: [] };
  const onRenderSite = location.hostname.endsWith(${JSON.stringify(`.${RENDER_SITE}`)});
  const absolute = (url, base) => {
    if (/^data:/i.test(url)) return url;
    try { const resolved = new URL(url, base); return resolved.origin === location.origin && onRenderSite ? resolved.pathname + resolved.search : resolved.href; } catch { return url; }
  };
  const fetched = [];
  let budget = 8 * 1024 * 1024;
  const inline = async (url) => {
    try {
      const response = await fetch(url);
      if (!response.ok) return url;
      const bytes = new Uint8Array(await response.arrayBuffer());
      if ((budget -= bytes.length) < 0) return url;
      let binary = '';
      for (let i = 0; i < bytes.length; i += 32768) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 32768));
      return 'data:' + (response.headers.get('content-type') || 'font/ttf').split(';')[0] + ';base64,' + btoa(binary);
    } catch { return url; }
  };
  const fontFace = async (rule, base) => {
    const family = rule.style.getPropertyValue('font-family').replace(/^["']|["']$/g, '').trim().toLowerCase();
    const named = family !== '' && used.includes(family);
    const parts = [];
    let last = 0;
    for (const match of rule.cssText.matchAll(/url\\(\\s*(["']?)([^"')]+)\\1\\s*\\)/g)) {
      let url = absolute(match[2], base);
      if (named && /^https?:/i.test(url)) url = await inline(url);
      parts.push(rule.cssText.slice(last, match.index), 'url("' + url + '")');
      last = match.index + match[0].length;
    }
    parts.push(rule.cssText.slice(last));
    return parts.join('');
  };
  const collect = (rules, base, depth) => {
    for (const rule of rules) {
      if (rule instanceof CSSFontFaceRule) fetched.push(fontFace(rule, base));
      else if (rule instanceof CSSImportRule) { try { if (rule.styleSheet && depth < 8) collect(rule.styleSheet.cssRules, rule.styleSheet.href || base, depth + 1); } catch {} }
      else if (rule.cssRules && depth < 8) collect(rule.cssRules, base, depth + 1);
    }
  };
  for (const sheet of document.styleSheets) { try { collect(sheet.cssRules, sheet.href || document.baseURI, 0); } catch {} }
  out.fontFaces = await Promise.all(fetched);
  if (prefix) {
    const marked = document.querySelectorAll('[data-section]');
    const elements = marked.length > 0 ? marked : document.querySelectorAll('h1, h2, h3, h4, h5, h6');
    for (const element of elements) {
      if (out.sections.length >= 10000) break;
      const link = document.createElement('a');
      link.href = prefix + out.sections.length;
      link.setAttribute('aria-hidden', 'true');
      link.style.cssText = 'position:absolute!important;display:block!important;width:1px!important;height:1px!important;margin:0!important;padding:0!important;border:0!important;visibility:visible!important;opacity:1!important;overflow:hidden!important;font-size:0!important';
      element.prepend(link);
      out.sections.push((element.getAttribute('data-section') || element.textContent || '').replace(/\\s+/g, ' ').trim());
    }
  }
  return out;
}`;

/**
 * Runs in the body page: lays out each variant (already expanded with sample values) in a shadow
 * root at the box width, with the box's default style, waits for its images, stylesheets and fonts,
 * and answers each one's height. The page's own styles do not reach into the shadow root; its
 * @font-face fonts do.
 */
const MEASURE = `async ({ width, css, boxes }) => {
  const host = document.createElement('div');
  host.style.cssText = 'all:initial!important;position:absolute!important;left:0!important;top:0!important;width:' + width + 'px!important;visibility:hidden!important;display:block!important';
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = '<style>.q-box{' + css + '}</style>' + boxes.map((html) => '<div class="q-box" style="width:' + width + 'px">' + html + '</div>').join('');
  document.documentElement.appendChild(host);
  try {
    const settle = (element, ready) => ready ? null : new Promise((resolve) => { element.addEventListener('load', resolve, { once: true }); element.addEventListener('error', resolve, { once: true }); });
    await Promise.all([
      ...Array.from(root.querySelectorAll('img'), (img) => settle(img, img.complete)),
      ...Array.from(root.querySelectorAll('link[rel~="stylesheet"]'), (link) => settle(link, link.sheet)),
    ]);
    await document.fonts.ready;
    return Array.from(root.children).filter((box) => box.className === 'q-box').map((box) => box.getBoundingClientRect().height);
  } finally {
    host.remove();
  }
}`;

/**
 * Learns what the body page knows about its header and footer (PageFacts), marking sections
 * when a variant uses them. Throws RenderInputError naming the field when the boxes leave no room.
 */
export async function learnFromPage(page: CdpPage, heads: Heads, geometry: HeadsGeometry, data: unknown): Promise<PageFacts> {
  const markerPrefix = usesSections(heads) ? `https://s${randomBytes(8).toString('hex')}.quire.invalid/` : undefined;
  const used = [heads.header, heads.footer]
    .flatMap((running) => (running ? variantsOf(running) : []))
    .join('\n')
    .toLowerCase();
  const collected = await inPage<Collected>(page, `(${COLLECT})(${JSON.stringify({ prefix: markerPrefix ?? '', used })})`);
  const longestSection = collected.sections.reduce((longest, text) => (text.length > longest.length ? text : longest), '');
  const heights = await measureHeights(page, heads, geometry.boxWidth, data, { section: longestSection, title: collected.title });
  checkRoom(geometry, heights);
  return { heights, title: collected.title, fontFaces: collected.fontFaces, sections: collected.sections, markerPrefix };
}

/**
 * The height of each box in CSS px: given, or measured in the page (already loaded) at `width`,
 * the tallest variant with sample page variables (the longest section text, the title).
 */
async function measureHeights(
  page: CdpPage,
  heads: Heads,
  width: number,
  data: unknown,
  known: { section: string; title: string },
): Promise<PageFacts['heights']> {
  const heights: PageFacts['heights'] = {};
  const sample = { page: 999, pages: 999, document_page: 999, document_pages: 999, date: '2000-12-31', ...known };
  for (const side of ['header', 'footer'] as const) {
    const running = heads[side];
    if (!running) continue;
    const given = running.height === undefined ? undefined : cssLengthToPx(running.height);
    if (given !== undefined) {
      heights[side] = given;
      continue;
    }
    const boxes = variantsOf(running).map((html) => expandRunning(html, data, sample, `options.${side}`));
    const measured = await inPage<number[]>(page, `(${MEASURE})(${JSON.stringify({ width, css: BOX_CSS, boxes })})`);
    heights[side] = Math.ceil(Math.max(0, ...measured));
  }
  return heights;
}

/** Evaluates layout code in the page; what the page's own scripts break is a RenderInputError, a closed page stays a crash. */
export async function inPage<T>(page: CdpPage, expression: string, field = 'options.header', what = 'the header and footer'): Promise<T> {
  try {
    return await page.evaluate<T>(expression);
  } catch (error) {
    if (error instanceof RenderInputError) throw error;
    const message = (error as Error).message ?? '';
    // The page's own scripts can break the layout code (a replaced DOM method): say so, as a request problem.
    if (/Target closed|Session closed|detached/i.test(message)) throw error;
    throw new RenderInputError(field, `the page's scripts kept ${what} from being laid out (${message.slice(0, 200)})`);
  }
}

function checkRoom(geometry: HeadsGeometry, heights: PageFacts['heights']): void {
  const { margins, paperHeight } = geometry;
  const taken = margins.top + margins.bottom + (heights.header ?? 0) + (heights.footer ?? 0);
  if (taken < paperHeight) return;
  const side = (heights.header ?? 0) >= (heights.footer ?? 0) ? 'header' : 'footer';
  throw new RenderInputError(
    `options.${side}`,
    `options.${side} is ${Math.round(heights[side] ?? 0)}px tall: with the margins${heights.header && heights.footer ? ' and the other box' : ''} it leaves no room for the body on a page ${Math.round(paperHeight)}px tall`,
  );
}

/** The body's print parameters with the top and bottom margins grown by the boxes' heights. */
export function withRoom(params: Protocol.Page.PrintToPDFRequest, heights: PageFacts['heights']): Protocol.Page.PrintToPDFRequest {
  return {
    ...params,
    marginTop: (params.marginTop ?? 0) + (heights.header ?? 0) / 96,
    marginBottom: (params.marginBottom ?? 0) + (heights.footer ?? 0) / 96,
  };
}
