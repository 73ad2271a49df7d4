// docs/api.md#playground: a render with no key, limited per client address.

import { callJson, callPdf, type PdfResponse } from './client.ts';
import type { Receipt } from './activity.ts';
import type { PdfOptions } from './types.ts';

export interface PlaygroundRequest {
  html?: string;
  markdown?: string;
  url?: string;
  options?: PdfOptions;
  filename?: string;
}

export function renderPlayground(request: PlaygroundRequest, signal?: AbortSignal): Promise<PdfResponse> {
  return callPdf('POST', '/v1/playground/pdf', { body: request, signal });
}

/**
 * A playground render's receipt (docs/api.md#render-receipts), by the path its answer named: the
 * page that made the render is the only one told that id, so no key is needed.
 */
export function getPlaygroundReceipt(path: string, signal?: AbortSignal): Promise<Receipt> {
  if (!/^\/v1\/playground\/receipts\/rcp_[A-Za-z0-9]+$/.test(path)) return Promise.reject(new Error(`not a playground receipt: ${path}`));
  return callJson<Receipt>('GET', path, { signal });
}
