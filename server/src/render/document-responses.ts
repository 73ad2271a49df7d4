// What a url render's top-level document answered: its HTTP status and the redirects it took,
// each redirect target put to the source's checkRedirect (the network guard). Apart from
// cdp-page.ts because only url lanes listen to these Network events.

import type { Protocol } from 'puppeteer-core';
import type { RenderSource } from './render-source.ts';
import type { CdpSession } from './cdp-session.ts';

export class DocumentResponses {
  private readonly status = new Map<string, number>();
  private readonly redirects: { requestId: string; url: string }[] = [];

  /** Records the top-level document's responses and redirects (needs the Network domain enabled). */
  listen(session: CdpSession): void {
    session.on('Network.responseReceived', (event: Protocol.Network.ResponseReceivedEvent) => {
      if (event.type === 'Document') this.status.set(event.requestId, event.response.status);
    });
    session.on('Network.requestWillBeSent', (event: Protocol.Network.RequestWillBeSentEvent) => {
      if (event.type === 'Document' && event.redirectResponse) this.redirects.push({ requestId: event.requestId, url: event.request.url });
    });
  }

  /** Forgets the previous load's documents. */
  reset(): void {
    this.status.clear();
    this.redirects.length = 0;
  }

  /** The status the document of `loaderId` (its request id) answered with, when it was recorded. */
  statusOf(loaderId: string): number | undefined {
    return this.status.get(loaderId);
  }

  /**
   * Runs the source's checkRedirect on every redirect target of the top-level document (url
   * renders only), so a hop the network guard refused fails as that refusal, not as a load error.
   */
  async checkRedirects(source: RenderSource, loaderId: string | undefined): Promise<void> {
    if (source.kind !== 'url' || !source.checkRedirect) return;
    // Without a loaderId the navigation failed before committing: every hop so far was its own.
    const hops = this.redirects.filter((hop) => !loaderId || hop.requestId === loaderId);
    for (const hop of hops) await source.checkRedirect(hop.url);
  }
}

/** Chromium refuses a redirect to file:, chrome: and the like itself, before any event names the target. */
export async function checkUnsafeRedirect(source: RenderSource, errorText: string): Promise<void> {
  if (source.kind === 'url' && source.checkRedirect && errorText === 'net::ERR_UNSAFE_REDIRECT') await source.checkRedirect('unsafe-redirect:');
}
