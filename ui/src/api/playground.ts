// docs/api.md#playground: a render with no key, limited per client address.

import { callPdf, type PdfResponse } from './client.ts';
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
