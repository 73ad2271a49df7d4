// Renders for the render-options tests: the response must be a PDF, read back with inspectPdf.

import assert from 'node:assert/strict';
import type { TestServer } from './start-app.ts';
import { inspectPdf, type InspectedPdf } from './pdf.ts';

export async function pdfOf(response: Response): Promise<{ bytes: Uint8Array; pdf: InspectedPdf }> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, `expected a PDF, got ${response.status}: ${Buffer.from(bytes.subarray(0, 300)).toString()}`);
  assert.equal(response.headers.get('content-type'), 'application/pdf');
  return { bytes, pdf: await inspectPdf(bytes) };
}

export async function render(server: TestServer, html: string, options: Record<string, unknown> = {}): Promise<{ bytes: Uint8Array; pdf: InspectedPdf }> {
  return pdfOf(await server.render({ html, options: { wait_until: 'load', ...options } }));
}
