// POST /v1/pdf/transform: read the PDF and the steps (JSON or multipart), transform through
// TransformService, answer the PDF (like /v1/pdf), a zip of split parts, or the kept parts as JSON.

import { PDF_AND_ATTACHMENTS_BODY } from '../body-limits.ts';
import type { Response } from 'express';
import type { StepReport } from '../../shapes/transform-json.ts';
import type { TransformResult, TransformService } from '../../services/pdf-tools/transform.ts';
import { USAGE_HEADER_DOCS, usageHeaders } from '../../wire/usage-headers.ts';
import { contentDisposition } from '../content-disposition.ts';
import { accountOf } from '../middleware/auth.ts';
import { operation } from '../operation.ts';
import { readPdfUpload } from '../pdf-upload.ts';
import { transformMultipartSchema, transformRequestSchema } from '../schemas/transform.ts';
import { RECEIPT_HEADER_DOCS, setReceiptHeader } from './receipts.ts';
import { STORED_HEADER_DOCS, requestIdOf, sendPdf } from './render.ts';

/** Room for the largest PDF input and the final steps' attachments, both as base64, and the rest of the request. */
export const TRANSFORM_BODY = PDF_AND_ATTACHMENTS_BODY;

export const STEPS_HEADER = {
  'X-Pdf-Steps': 'What each step did, as JSON: [{op, ms, bytes_before, bytes_after, pages, parts?}]; the receipt records the same, then the final steps.',
};

export function transformOperations(service: TransformService) {
  return [
    operation({
      method: 'post',
      path: '/v1/pdf/transform',
      summary: 'Split, pick, reorder, rotate, flatten, compress or fill a PDF you hold, in steps',
      tag: 'Render',
      auth: 'api_key',
      bodies: { 'application/json': transformRequestSchema, 'multipart/form-data': transformMultipartSchema },
      description:
        'One PDF (pdf as base64, a multipart part named file, or a stored document_id; password for an encrypted one) and steps applied in the ' +
        'order given (or a preset_id). Answers the PDF; after a split, a zip of the parts (output "zip") or the parts kept as documents, as JSON ' +
        '(output "documents"). Charged one document per call; a split kept as documents, one per part. Inputs are checked before anything is ' +
        'charged: encrypted without the password 422 password_required, damaged beyond repair 422 pdf_unreadable, past the limits (100 MB, ' +
        '2000 pages, a million objects, 150 million pixels per image) 413. JavaScript and launch actions are never run; flatten removes them.',
      responses: {
        200: {
          description: 'The PDF, or (split with output zip) application/zip of the parts.',
          body: 'pdf',
          headers: { ...USAGE_HEADER_DOCS, ...STORED_HEADER_DOCS, ...STEPS_HEADER, ...RECEIPT_HEADER_DOCS },
        },
        201: {
          description: 'split with output documents: {documents: [{id, filename, pages, bytes}], steps}.',
          headers: { ...USAGE_HEADER_DOCS, ...STEPS_HEADER, ...RECEIPT_HEADER_DOCS },
        },
      },
      errors: [
        'invalid_json',
        'invalid_request',
        'unauthorized',
        'quota_exceeded',
        'forbidden',
        'document_not_found',
        'not_found',
        'payload_too_large',
        'password_required',
        'password_incorrect',
        'pdf_unreadable',
        'storage_unavailable',
        'pdf_tool_unavailable',
        'renderer_busy',
        'render_timeout',
      ],
      handler: async (_input, req, res) => {
        const input = await readPdfUpload(req, transformRequestSchema, TRANSFORM_BODY);
        sendTransform(res, await service.transform(input, accountOf(res), requestIdOf(res)));
      },
    }),
  ];
}

/** The answer of a transform (a key's or the admin window's): the PDF, the zip of a split, or the parts kept. */
export function sendTransform(res: Response, outcome: TransformResult): void {
  stepsHeader(res, outcome.steps);
  if (outcome.kind === 'pdf') {
    sendPdf(res, outcome.result);
    return;
  }
  if (outcome.kind === 'zip') {
    const { result } = outcome;
    res.status(200).type('application/zip');
    if (result.usage) res.set(usageHeaders(result.usage));
    setReceiptHeader(res, result.receiptIds);
    res.setHeader('Content-Disposition', contentDisposition(result.filename ?? 'parts.zip', 'attachment'));
    res.end(Buffer.from(result.pdf.buffer, result.pdf.byteOffset, result.pdf.byteLength));
    return;
  }
  const last = outcome.results.at(-1);
  if (last?.usage) res.set(usageHeaders(last.usage));
  setReceiptHeader(
    res,
    outcome.results.flatMap((part) => part.receiptIds ?? []),
  );
  res.status(201).json({
    documents: outcome.results.map((part) => ({ id: part.documentId, filename: part.name, pages: part.pages, bytes: part.pdf.byteLength })),
    steps: outcome.steps,
  });
}

function stepsHeader(res: Response, steps: StepReport[]): void {
  res.setHeader('X-Pdf-Steps', JSON.stringify(steps));
}
