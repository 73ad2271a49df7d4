// What a bad-request case is and how it is sent, shared by the case lists beside this file and
// tests/api/bad-requests.test.ts.

import type { TestServer } from '../start-app.ts';

export interface BadRequest {
  name: string;
  method?: string;
  path?: string;
  /** An object is sent as JSON; a string or bytes are sent as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The Authorization header to send instead of the test key ('' sends none). */
  authorization?: string;
  status: number;
  code: string;
  /** Text the detail must contain, usually the offending field. */
  names?: string;
  /** Only a real Chromium can refuse it (the fast lane's fake page source compiles no script). */
  needsChromium?: true;
}

export const JSON_TYPE = { 'content-type': 'application/json' };
export const html = '<p>bad request</p>';
export const withOptions = (options: Record<string, unknown>) => ({ html, options: { wait_until: 'load', ...options } });
export const base64 = (pdf: Uint8Array) => Buffer.from(pdf).toString('base64');

export async function send(server: TestServer, bad: BadRequest): Promise<Response> {
  const authorization = bad.authorization ?? `Bearer ${server.key.key}`;
  const headers: Record<string, string> = { ...(authorization ? { authorization } : {}), ...(bad.headers ?? {}) };
  let body: string | Blob | undefined;
  if (typeof bad.body === 'string') body = bad.body;
  else if (bad.body instanceof Uint8Array) body = new Blob([new Uint8Array(bad.body)]);
  else if (bad.body !== undefined) {
    body = JSON.stringify(bad.body);
    headers['content-type'] ??= 'application/json';
  }
  return fetch(server.url + (bad.path ?? '/v1/pdf'), { method: bad.method ?? 'POST', headers, body });
}
