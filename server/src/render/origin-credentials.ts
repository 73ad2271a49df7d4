// Sends a url render's credentials (http_headers, cookies, basic_auth, user_agent) to the url's own
// origin and nowhere else. Every request of the page is paused (CDP Fetch domain) and continued
// with the extra headers only when its origin is the url's; a redirect hop is paused again, so a
// redirect to another origin goes out without them. Nothing here logs a header value.

import type { Protocol } from 'puppeteer-core';
import type { CdpSession } from './cdp-session.ts';
import { RENDER_URL_PATTERN, isRenderSiteUrl } from './render-document.ts';
import type { OriginCredentials } from './origin-credentials-options.ts';

/** Whether a render's options carry anything for the url's origin. */
export function hasOriginCredentials(options: OriginCredentials): boolean {
  return options.http_headers !== undefined || options.cookies !== undefined || options.basic_auth !== undefined || options.user_agent !== undefined;
}

/**
 * Starts adding the credentials to requests for the origin of url on this page; the returned
 * function stops it (and must run before the page serves another render).
 */
export async function sendCredentialsToOrigin(session: CdpSession, url: string, credentials: OriginCredentials): Promise<() => Promise<void>> {
  const origin = new URL(url).origin;
  const onPaused = (event: Protocol.Fetch.RequestPausedEvent) => {
    // Requests to the render site belong to CdpPage (html renders).
    if (isRenderSiteUrl(event.request.url)) return;
    const headers = originOf(event.request.url) === origin ? withCredentials(event.request.headers, new URL(event.request.url), credentials) : undefined;
    session.send('Fetch.continueRequest', { requestId: event.requestId, ...(headers ? { headers } : {}) }).catch(() => undefined);
  };
  session.on('Fetch.requestPaused', onPaused);
  await session.send('Fetch.enable', {
    patterns: [
      { urlPattern: RENDER_URL_PATTERN, requestStage: 'Request' },
      { urlPattern: '*', requestStage: 'Request' },
    ],
  });
  return async () => {
    session.off('Fetch.requestPaused', onPaused);
    await session.send('Fetch.enable', { patterns: [{ urlPattern: RENDER_URL_PATTERN, requestStage: 'Request' }] });
  };
}

function originOf(url: string): string | undefined {
  return URL.parse(url)?.origin;
}

/** The request's headers with ours set over them (names compared without case). */
function withCredentials(original: Protocol.Network.Headers, target: URL, credentials: OriginCredentials): Protocol.Fetch.HeaderEntry[] {
  const extra: Record<string, string> = { ...credentials.http_headers };
  if (credentials.user_agent !== undefined) extra['User-Agent'] = credentials.user_agent;
  if (credentials.basic_auth) {
    extra.Authorization = `Basic ${Buffer.from(`${credentials.basic_auth.username}:${credentials.basic_auth.password}`, 'utf8').toString('base64')}`;
  }
  const cookies = (credentials.cookies ?? []).filter(
    (cookie) => (!cookie.secure || target.protocol === 'https:') && pathMatches(target.pathname, cookie.path ?? '/'),
  );
  if (cookies.length > 0) extra.Cookie = cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  const overridden = new Set(Object.keys(extra).map((name) => name.toLowerCase()));
  return [
    ...Object.entries(original)
      .filter(([name]) => !overridden.has(name.toLowerCase()))
      .map(([name, value]) => ({ name, value })),
    ...Object.entries(extra).map(([name, value]) => ({ name, value })),
  ];
}

/** RFC 6265 path-match: the cookie path is the request path or a folder of it. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}
