// The second print of a render with a header or footer: one small page per distinct header or
// footer instance (each body page's variables filled in), printed in one go, and the plan that
// says which instance goes on which body page and where (pdf/stamp.ts draws them). Identical
// instances (a logo without page variables) are printed once and drawn on every page.

import { createHash } from 'node:crypto';
import type { Protocol } from 'puppeteer-core';
import { htmlForPage } from './header-options.ts';
import { BOX_CSS, type Heads, type HeadsGeometry, type PageFacts } from './header-plan.ts';
import { expandRunning, type PageVariables } from './header-variables.ts';
import type { AssetResolver } from './render-source.ts';
import type { StampBox, StampPlan } from '../pdf/stamp-plan.ts';

/** The numbers the body's pages carry: their own (1..n), or their place in a merged document. */
export interface Numbering {
  /** Per body page, its number in the result. */
  pageNumbers: number[];
  /** Pages in the result. */
  total: number;
}

export interface OverlayInput {
  heads: Heads;
  facts: PageFacts;
  geometry: HeadsGeometry;
  /** Per section number (facts.sections), the 0-based body page it starts on, -1 when not printed. */
  markers: number[];
  numbering: Numbering;
  data: unknown;
  /** The date variable (YYYY-MM-DD, UTC). */
  date: string;
  url?: string;
  /** Per page, the width of its boxes in CSS px, when pages differ (a PDF we did not lay out); else geometry.boxWidth. */
  boxWidths?: number[];
}

export interface Overlay {
  html: string;
  /** Images that were inlined as data: URIs, served by name to the overlay instead of repeated in every instance. */
  inline: Map<string, { contentType: string; body: Uint8Array }>;
  print: Protocol.Page.PrintToPDFRequest;
  plan: StampPlan;
}

const INLINE_PREFIX = '__quire-inline/';
const DATA_URI = /data:([a-z]+\/[a-z0-9.+-]+)((?:;[a-z0-9.+-]+=[a-z0-9.+-]+)*);base64,([A-Za-z0-9+/=\s]+)/gi;
const PT_PER_PX = 0.75;

/** The overlay document, its print parameters and the stamp plan for a printed body. */
export function buildOverlay(input: OverlayInput): Overlay {
  const { heads, facts, geometry, numbering } = input;
  const inline = new Map<string, { contentType: string; body: Uint8Array }>();
  const hoisted = new Map<string, string>();
  const hoist = (html: string) => {
    let out = hoisted.get(html);
    if (out === undefined) {
      out = html.replace(DATA_URI, (_, type: string, _params: string, base64: string) => {
        const body = new Uint8Array(Buffer.from(base64.replace(/\s+/g, ''), 'base64'));
        const name = `${INLINE_PREFIX}${createHash('sha256').update(body).digest('hex').slice(0, 24)}`;
        inline.set(name, { contentType: type, body });
        return `/${name}`;
      });
      hoisted.set(html, out);
    }
    return out;
  };
  const sections = sectionsByPage(facts.sections, input.markers, numbering.pageNumbers.length);
  const count = numbering.pageNumbers.length;
  const instances: Instance[] = [];
  const byContent = new Map<string, number>();
  const pages: StampPlan['pages'] = [];
  for (let index = 0; index < count; index++) {
    const variables: PageVariables = {
      page: numbering.pageNumbers[index]!,
      pages: numbering.total,
      document_page: index + 1,
      document_pages: count,
      section: sections[index]!,
      title: facts.title,
      date: input.date,
      url: input.url,
    };
    const wanted: StampPlan['pages'][number] = {};
    for (const side of ['header', 'footer'] as const) {
      const running = heads[side];
      const height = facts.heights[side] ?? 0;
      const template = running && height > 0 ? htmlForPage(running, index + 1, count) : undefined;
      if (template === undefined) continue;
      const html = expandRunning(hoist(template), input.data, variables, `options.${side}`);
      const width = input.boxWidths?.[index] ?? geometry.boxWidth;
      const key = `${side}\u0000${width}\u0000${html}`;
      let instance = byContent.get(key);
      if (instance === undefined) {
        instance = instances.length;
        instances.push({ side, html, height, width });
        byContent.set(key, instance);
      }
      wanted[side] = instance;
    }
    pages.push(wanted);
  }
  const width = Math.max(1, ...instances.map((instance) => instance.width));
  const height = Math.max(1, ...instances.map((instance) => instance.height));
  const box = (side: 'header' | 'footer', edge: number): StampBox | undefined =>
    facts.heights[side]
      ? { x: geometry.margins.left * PT_PER_PX, edge: edge * PT_PER_PX, width: geometry.boxWidth * PT_PER_PX, height: facts.heights[side]! * PT_PER_PX }
      : undefined;
  return {
    html: overlayHtml(instances, facts.fontFaces),
    inline,
    // A little larger than the boxes: a page that rounds a hair short must not push a box onto a page of its own.
    print: {
      paperWidth: (width + 2) / 96,
      paperHeight: (height + 2) / 96,
      marginTop: 0,
      marginBottom: 0,
      marginLeft: 0,
      marginRight: 0,
      printBackground: true,
      scale: 1,
      preferCSSPageSize: false,
      displayHeaderFooter: false,
      generateTaggedPDF: false,
      transferMode: 'ReturnAsBase64',
    },
    plan: {
      pages,
      header: box('header', geometry.margins.top),
      footer: box('footer', geometry.margins.bottom),
      overlayHeight: ((height + 2) / 96) * 72,
      sizes: instances.map((instance) => ({ width: instance.width * PT_PER_PX, height: instance.height * PT_PER_PX })),
      markerPrefix: facts.markerPrefix,
    },
  };
}

/** The overlay's assets: its hoisted images first, then the render's own (a template's). */
export function overlayAssets(overlay: Overlay, assets: AssetResolver | undefined): AssetResolver {
  return async (name) => overlay.inline.get(name) ?? (assets ? assets(name) : undefined);
}

interface Instance {
  side: 'header' | 'footer';
  html: string;
  height: number;
  width: number;
}

function overlayHtml(instances: Instance[], fontFaces: string[]): string {
  const boxes = instances.map(
    (instance, index) =>
      `<div class="q-box" data-side="${instance.side}" style="width:${instance.width}px;height:${instance.height}px${index < instances.length - 1 ? ';break-after:page' : ''}">${instance.html}</div>`,
  );
  return (
    '<!doctype html><html><head><meta charset="utf-8">' +
    `<style>html,body{margin:0;padding:0;background:transparent}.q-box{${BOX_CSS};overflow:hidden}</style>` +
    (fontFaces.length > 0 ? `<style>${fontFaces.join('\n')}</style>` : '') +
    `</head><body>${boxes.join('')}</body></html>`
  );
}

/**
 * The section of each page: the first section that starts on it, else the last one started
 * before it (CSS paged media's string(name, first)); '' before the first.
 */
export function sectionsByPage(texts: string[], markers: number[], count: number): string[] {
  const first: (string | undefined)[] = new Array(count);
  const last: (string | undefined)[] = new Array(count);
  markers.forEach((page, number) => {
    if (page < 0 || page >= count) return;
    first[page] ??= texts[number] ?? '';
    last[page] = texts[number] ?? '';
  });
  const out: string[] = [];
  let carried = '';
  for (let page = 0; page < count; page++) {
    out.push(first[page] ?? carried);
    if (last[page] !== undefined) carried = last[page]!;
  }
  return out;
}
