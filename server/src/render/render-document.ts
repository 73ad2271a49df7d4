// How an `html` render becomes its own document: a fresh origin per render under one site, and a
// "gate" script placed first in the document. The gate is fetched (and answered by us) only after
// the previous document is gone and before any of this document's scripts run: the one moment
// when wiping cookies cannot race the previous page's timers (see chromium-page-source.ts).

import { randomBytes } from 'node:crypto';

/**
 * All html renders share this site, so Chromium keeps one renderer process per worker (a site per
 * render would spawn a process each time). `.invalid` never resolves (RFC 2606): nothing but our
 * own interception can answer it.
 */
export const RENDER_SITE = 'render.invalid';
export const RENDER_URL_PATTERN = `*://*.${RENDER_SITE}/*`;
export const GATE_PATH = '/__quire_gate.js';

/**
 * The script the gate answers with. `window.name` belongs to the browsing context, not the
 * document, so it survives navigations: emptied here, before any script of the page can read it.
 * The script removes its own element so the page sees its own DOM.
 */
export const GATE_SCRIPT = "window.name = ''; document.currentScript && document.currentScript.remove();";

export interface RenderDocument {
  url: string;
  gateUrl: string;
  body: string;
}

// A doctype must stay first or the page drops into quirks mode; comments may precede it.
const LEADING_DOCTYPE = /^(\uFEFF?\s*(?:<!--[\s\S]*?-->\s*)*<!doctype[^>]*>)/i;

/** Wraps HTML into a document with a fresh origin and the gate placed before any page script. */
export function renderDocument(html: string): RenderDocument {
  const origin = `http://r${randomBytes(12).toString('hex')}.${RENDER_SITE}`;
  const gateUrl = `${origin}${GATE_PATH}`;
  const gate = `<script src="${gateUrl}"></script>`;
  const doctype = LEADING_DOCTYPE.exec(html)?.[1];
  const body = doctype ? `${doctype}${gate}${html.slice(doctype.length)}` : `${gate}${html}`;
  return { url: `${origin}/`, gateUrl, body };
}

/** Whether a URL is on the render site (answered by CdpPage, never by the network). */
export function isRenderSiteUrl(url: string): boolean {
  try {
    return new URL(url).hostname.endsWith(`.${RENDER_SITE}`);
  } catch {
    return false;
  }
}
