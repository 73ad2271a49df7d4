// How an `html` render gets a document of its own: a fresh origin per render under one site. A
// lane's teardown (cdp-page.ts clear) navigates to the next render's origin, answered from memory
// with an empty document; the render then writes its HTML into that document
// (Page.setDocumentContent). The navigation replaces the previous render's window, realm and
// origin-keyed storage; nothing but the empty document has run in the new one.

import { randomBytes } from 'node:crypto';

/**
 * All html renders share this site, so Chromium keeps one renderer process per worker (a site per
 * render would spawn a process each time). `.invalid` never resolves (RFC 2606): nothing but our
 * own interception can answer it.
 */
export const RENDER_SITE = 'render.invalid';
export const RENDER_URL_PATTERN = `*://*.${RENDER_SITE}/*`;

/** The empty document a render's HTML is written into. */
export const EMPTY_DOCUMENT = '';

export interface RenderDocument {
  url: string;
  body: string;
}

/** The empty document of a fresh origin, for the next render. */
export function freshDocument(): RenderDocument {
  return { url: `http://r${randomBytes(12).toString('hex')}.${RENDER_SITE}/`, body: EMPTY_DOCUMENT };
}

/** Whether a URL is on the render site (answered by CdpPage, never by the network). */
export function isRenderSiteUrl(url: string): boolean {
  return URL.parse(url)?.hostname.endsWith(`.${RENDER_SITE}`) ?? false;
}
