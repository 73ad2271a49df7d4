// POST /v1/pdf: validate, render through RenderService, answer the PDF bytes.

import { ATTACHMENTS_BODY } from '../body-limits.ts';
import type { Response } from 'express';
import { operation } from '../operation.ts';
import { renderRequestSchema, SOURCE_RENDER_ERRORS } from '../schemas/render.ts';
import { contentDisposition } from '../content-disposition.ts';
import type { RenderService, RenderedPdf } from '../../services/render/render.ts';
import { accountOf } from '../middleware/auth.ts';
import { USAGE_HEADER_DOCS, usageHeaders } from '../../wire/usage-headers.ts';
import { RECEIPT_HEADER_DOCS, setReceiptHeader } from './receipts.ts';

export const STORED_HEADER_DOCS = {
  'X-Document-Id': 'Id of the stored copy (doc_...), when the render was stored.',
  Location: 'Where the stored copy can be fetched: /v1/documents/{id}, when the render was stored.',
};

export function renderOperations(service: RenderService) {
  return [
    operation({
      method: 'post',
      path: '/v1/pdf',
      summary: 'Render HTML, a URL or a stored template to PDF',
      tag: 'Render',
      auth: 'api_key',
      body: renderRequestSchema,
      bodyLimit: ATTACHMENTS_BODY,
      description:
        'With template_id, data fills the template’s placeholders; the 5 MB ceiling applies to the HTML after substitution. ' +
        'With store: true (or the key’s auto_store when store is omitted) a copy is kept for the plan’s retention, on disk before the ' +
        'response, named by X-Document-Id and Location. store: true on a plan with zero retention is 422 storage_unavailable; ' +
        'auto_store there stores nothing. The month’s allowance (402) is checked before the template is expanded or a url resolved. ' +
        'A key has at most its plan’s concurrency renders in flight (free 1, starter 2, growth 4, scale 8, business 16); more wait in the key’s own ' +
        'queue, and waiting renders of different keys take turns, so one key’s flood never starves another key’s request.',
      responses: {
        200: {
          description: 'The PDF. A 402 carries the same usage headers.',
          body: 'pdf',
          headers: { ...USAGE_HEADER_DOCS, ...STORED_HEADER_DOCS, ...RECEIPT_HEADER_DOCS },
        },
      },
      errors: [...SOURCE_RENDER_ERRORS, 'storage_unavailable'],
      handler: async ({ body }, _req, res) => {
        sendPdf(res, await service.render(body, accountOf(res), { requestId: requestIdOf(res) }));
      },
    }),
  ];
}

/** Writes PDF bytes with their Content-Disposition (and the usage headers of a metered render). */
export function sendPdf(res: Response, rendered: RenderedPdf): void {
  res.status(200).type('application/pdf');
  if (rendered.usage) res.set(usageHeaders(rendered.usage));
  if (rendered.headers) res.set(rendered.headers);
  if (rendered.filename) res.setHeader('Content-Disposition', contentDisposition(rendered.filename));
  if (rendered.documentId) res.set({ 'X-Document-Id': rendered.documentId, Location: `/v1/documents/${rendered.documentId}` });
  setReceiptHeader(res, rendered.receiptIds);
  res.end(Buffer.from(rendered.pdf.buffer, rendered.pdf.byteOffset, rendered.pdf.byteLength));
}

/** The call's X-Request-Id (http/middleware/request-context.ts), for the receipt. */
export function requestIdOf(res: Response): string | undefined {
  const id = res.getHeader('X-Request-Id');
  return typeof id === 'string' ? id : undefined;
}
