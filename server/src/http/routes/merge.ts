// POST /v1/pdf/merge: validate, merge through MergeService, answer the PDF bytes like /v1/pdf.

import { operation } from '../operation.ts';
import { mergeRequestSchema } from '../schemas/merge.ts';
import { SOURCE_RENDER_ERRORS } from '../schemas/render.ts';
import type { MergeService } from '../../services/merge.ts';
import { accountOf } from '../middleware/auth.ts';
import { USAGE_HEADER_DOCS } from '../../wire/usage-headers.ts';
import { STORED_HEADER_DOCS, requestIdOf, sendPdf } from './render.ts';
import { RECEIPT_HEADER_DOCS } from './receipts.ts';

export function mergeOperations(service: MergeService) {
  return [
    operation({
      method: 'post',
      path: '/v1/pdf/merge',
      summary: 'Join stored documents, uploaded PDFs and renders into one PDF',
      tag: 'Render',
      auth: 'api_key',
      body: mergeRequestSchema,
      description:
        'Sources are joined in the order given; page_ranges on a source keeps only those pages. Charged one document per rendered source ' +
        '(html, url, markdown, template_id), at least one per call; stored documents and uploaded PDFs cost nothing more. Every source is checked ' +
        'before anything is charged: an unknown document is 404, an uploaded PDF that is damaged or encrypted, or a page range past its end, ' +
        'is 400 naming the source (sources[2]...). options (metadata, outline, encrypt, watermark) apply to the merged document; store and ' +
        'filename as for POST /v1/pdf. The whole body is limited like any request (6 MB).',
      responses: { 200: { description: 'The merged PDF.', body: 'pdf', headers: { ...USAGE_HEADER_DOCS, ...STORED_HEADER_DOCS, ...RECEIPT_HEADER_DOCS } } },
      errors: [...SOURCE_RENDER_ERRORS, 'document_not_found', 'document_expired', 'storage_unavailable'],
      handler: async ({ body }, _req, res) => {
        sendPdf(res, await service.merge(body, accountOf(res), requestIdOf(res)));
      },
    }),
  ];
}
