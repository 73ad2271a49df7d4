// POST /v1/pdf/merge: validate, merge through MergeService, answer the PDF bytes like /v1/pdf.

import { PDF_AND_ATTACHMENTS_BODY } from '../body-limits.ts';
import { operation } from '../operation.ts';
import { mergeRequestSchema } from '../schemas/merge.ts';
import { SOURCE_RENDER_ERRORS } from '../schemas/render.ts';
import type { MergeService } from '../../services/merge/merge.ts';
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
      bodyLimit: PDF_AND_ATTACHMENTS_BODY,
      description:
        'Sources are joined in the order given; page_ranges on a source keeps only those pages. Charged one document per rendered source ' +
        '(html, url, markdown, template_id), at least one per call; stored documents and uploaded PDFs cost nothing more. Every source is checked ' +
        'before anything is charged: an unknown document is 404; an uploaded or stored PDF passes the checks of every PDF input (not a PDF or damaged 422 ' +
        'pdf_unreadable, encrypted without its password 422 password_required, past the limits or the stream budget 413); a page range past its end ' +
        'is 400; each names the source (sources[2]...). options (metadata, outline, encrypt, watermark) apply to the merged document; store and ' +
        'filename as for POST /v1/pdf. The body may be up to about 147 MB: a PDF input of 100 MB and 10 MB of attachments, both as base64, and 1 MB of fields.',
      responses: { 200: { description: 'The merged PDF.', body: 'pdf', headers: { ...USAGE_HEADER_DOCS, ...STORED_HEADER_DOCS, ...RECEIPT_HEADER_DOCS } } },
      errors: [
        ...SOURCE_RENDER_ERRORS,
        'document_not_found',
        'document_expired',
        'storage_unavailable',
        'password_required',
        'password_incorrect',
        'pdf_unreadable',
      ],
      handler: async ({ body }, _req, res) => {
        sendPdf(res, await service.merge(body, accountOf(res), requestIdOf(res)));
      },
    }),
  ];
}
