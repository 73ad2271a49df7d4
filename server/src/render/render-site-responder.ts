// Answers a page's requests to the render site (render-document.ts) from memory through CDP's
// Fetch domain: the empty document a navigation asks for, the html render's assets, 404 for the
// rest. Apart from cdp-page.ts, which loads and prints, because this runs on the page's events.

import type { Protocol } from 'puppeteer-core';
import { isRenderSiteUrl, type RenderDocument } from './render-document.ts';
import type { AssetResolver } from './render-source.ts';
import type { CdpSession } from './cdp-session.ts';

export class RenderSiteResponder {
  /** The document a navigation in progress asks for, answered from memory. */
  document: RenderDocument | undefined;
  /** The current html render's assets, by its origin: kept until the next load, as fonts may be asked for while printing. */
  assets: { origin: string; resolve: AssetResolver } | undefined;

  constructor(private readonly session: CdpSession) {}

  /** Answers requests to the render site: the empty document, the render's assets, and 404 for anything else. */
  async answer(event: Protocol.Fetch.RequestPausedEvent): Promise<void> {
    // Other requests are paused only while origin-credentials.ts intercepts them, and it answers them.
    if (!isRenderSiteUrl(event.request.url)) return;
    const pending = this.document;
    try {
      if (pending && event.request.url === pending.url && event.resourceType === 'Document') {
        await this.fulfill(event.requestId, 200, 'text/html; charset=utf-8', pending.body);
      } else if (this.assets && new URL(event.request.url).origin === this.assets.origin) {
        const asset = await this.assets.resolve(assetNameOf(event.request.url)).catch(() => undefined);
        if (asset) await this.fulfill(event.requestId, 200, asset.contentType, asset.body);
        else await this.fulfill(event.requestId, 404, 'text/plain', 'not found');
      } else {
        await this.fulfill(event.requestId, 404, 'text/plain', 'not found');
      }
    } catch {
      // The page went away while we answered; the render's own error path handles it.
    }
  }

  private fulfill(requestId: string, status: number, contentType: string, body: string | Uint8Array): Promise<unknown> {
    return this.session.send('Fetch.fulfillRequest', {
      requestId,
      responseCode: status,
      responseHeaders: [
        { name: 'Content-Type', value: contentType },
        { name: 'Cache-Control', value: 'no-store' },
      ],
      body: (typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength)).toString('base64'),
    });
  }
}

/** The relative name a same-origin request asks for ("fonts/Inter.woff2"); "" when it cannot be decoded. */
function assetNameOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.slice(1));
  } catch {
    return '';
  }
}
