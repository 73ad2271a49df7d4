// The read-only PDF tools (docs/api.md#pdf-tools): inspect a PDF and draw its pages as images, for
// a key (uploads and its stored documents) and for the admin window (any key's documents), and
// thumbnails of stored documents. Bodies are JSON or multipart (http/pdf-upload.ts).
// Its operation({...}) entries look alike by design, one declaration per endpoint (docs/duplicates.md).

import { PDF_BODY } from '../body-limits.ts';
import type { Response } from 'express';
import { contentDisposition } from '../content-disposition.ts';
import { accountOf } from '../middleware/auth.ts';
import { operation } from '../operation.ts';
import { readPdfUpload } from '../pdf-upload.ts';
import { imagesRequestSchema, inspectionSchema, inspectRequestSchema, thumbnailQuerySchema } from '../schemas/pdf-tools.ts';
import type { ImagesResult, PdfToolsService } from '../../services/pdf-tools/pdf-tools.ts';
import type { PdfInspection } from '../../pdf/inspect.ts';
import { USAGE_HEADER_DOCS, usageHeaders } from '../../wire/usage-headers.ts';
import type { ErrorCode } from '../../errors.ts';

const INPUT_ERRORS: ErrorCode[] = [
  'invalid_json',
  'invalid_request',
  'unauthorized',
  'document_not_found',
  'document_expired',
  'password_required',
  'password_incorrect',
  'payload_too_large',
  'pdf_unreadable',
  'pdf_tool_unavailable',
  'renderer_busy',
  'render_timeout',
];
const BODY_FORMS = { 'multipart/form-data': imagesRequestSchema, 'application/json': imagesRequestSchema };
const INSPECT_FORMS = { 'multipart/form-data': inspectRequestSchema, 'application/json': inspectRequestSchema };
const IMAGES_DOC =
  'One image per page asked (pages: "1-3, 5"), at dpi (default 150) or width pixels wide, as png (default), jpeg or webp; output zip ' +
  '(default), json (base64 in a list) or image (one page, as the body). Drawn by pdf.js on a PDF worker thread. Limits: 25 million pixels ' +
  'a page, 200 million and 500 pages a call, 120 s (413 payload_too_large before anything is drawn, 504 render_timeout). The PDF as for ' +
  'every PDF tool: pdf (base64) or a multipart part named file, or document_id; password for an encrypted one.';

export function pdfToolOperations(tools: PdfToolsService) {
  return [
    operation({
      method: 'post',
      path: '/v1/pdf/inspect',
      summary: 'What is inside a PDF: pages, metadata, bookmarks, form fields, attachments, fonts, images, encryption, PDF/A claim, signatures',
      tag: 'PDF tools',
      auth: 'api_key',
      bodies: INSPECT_FORMS,
      description:
        'Reads an uploaded PDF (pdf base64, or a multipart part named file) or a stored document (document_id) and answers what it holds, ' +
        'as JSON. Not charged (it draws nothing), but bounded like every PDF input (100 MB, 2000 pages; 413) and at most 4 PDF tool calls at once ' +
        '(503 renderer_busy). Encrypted without password: 422 password_required.',
      responses: { 200: { description: 'The inspection.', body: inspectionSchema } },
      errors: INPUT_ERRORS,
      handler: async (_input, req, res) => {
        res.json(inspectionJson(await tools.inspect(await readPdfUpload(req, inspectRequestSchema, PDF_BODY), accountOf(res))));
      },
    }),
    operation({
      method: 'post',
      path: '/v1/pdf/images',
      summary: 'Draw a PDF’s pages as PNG, JPEG or WebP images',
      tag: 'PDF tools',
      auth: 'api_key',
      bodies: BODY_FORMS,
      description: `${IMAGES_DOC} Charged one document per call, whatever the page count; nothing when it fails.`,
      responses: {
        200: { description: 'A zip (application/zip), JSON, or one image.', body: 'image', headers: USAGE_HEADER_DOCS },
      },
      errors: [...INPUT_ERRORS, 'quota_exceeded'],
      handler: async (_input, req, res) => {
        const { pdf, document_id, password, filename, ...options } = await readPdfUpload(req, imagesRequestSchema, PDF_BODY);
        sendImages(res, await tools.images({ pdf, document_id, password, filename }, options, accountOf(res)));
      },
    }),
    operation({
      method: 'get',
      path: '/v1/documents/:document_id/inspect',
      summary: 'Inspect a stored document',
      tag: 'PDF tools',
      auth: 'api_key',
      description: 'As POST /v1/pdf/inspect with this document_id (an encrypted one needs that call, with its password).',
      responses: { 200: { description: 'The inspection.', body: inspectionSchema } },
      errors: INPUT_ERRORS,
      handler: async ({ params }, _req, res) => {
        res.json(inspectionJson(await tools.inspect({ document_id: params.document_id }, accountOf(res))));
      },
    }),
    operation({
      method: 'get',
      path: '/v1/documents/:document_id/thumbnail',
      summary: 'A stored document’s page as a small PNG',
      tag: 'PDF tools',
      auth: 'api_key',
      query: thumbnailQuerySchema,
      description: 'Page `page` (default 1) width pixels wide (default 240), drawn as POST /v1/pdf/images does. Not charged; kept in memory once drawn.',
      responses: { 200: { description: 'The PNG.', body: 'image' } },
      errors: INPUT_ERRORS,
      handler: async ({ params, query }, _req, res) => {
        sendThumbnail(res, await tools.thumbnail(accountOf(res).keyId, params.document_id!, query.page, query.width));
      },
    }),
    operation({
      method: 'post',
      path: '/admin/v1/pdf/inspect',
      summary: 'Inspect an uploaded PDF or any key’s stored document',
      tag: 'Admin: documents and templates',
      auth: 'admin',
      bodies: INSPECT_FORMS,
      description: 'As POST /v1/pdf/inspect, for the admin window’s PDF tools; document_id may be any key’s.',
      responses: { 200: { description: 'The inspection.', body: inspectionSchema } },
      errors: INPUT_ERRORS,
      handler: async (_input, req, res) => {
        res.json(inspectionJson(await tools.inspectAsAdmin(await readPdfUpload(req, inspectRequestSchema, PDF_BODY))));
      },
    }),
    operation({
      method: 'post',
      path: '/admin/v1/pdf/images',
      summary: 'Draw an uploaded PDF or any key’s stored document as images (not charged)',
      tag: 'Admin: documents and templates',
      auth: 'admin',
      bodies: BODY_FORMS,
      description: `${IMAGES_DOC} For the admin window: not charged.`,
      responses: { 200: { description: 'A zip, JSON, or one image.', body: 'image' } },
      errors: INPUT_ERRORS,
      handler: async (_input, req, res) => {
        const { pdf, document_id, password, filename, ...options } = await readPdfUpload(req, imagesRequestSchema, PDF_BODY);
        sendImages(res, await tools.imagesAsAdmin({ pdf, document_id, password, filename }, options));
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/documents/:document_id/inspect',
      summary: 'Inspect any stored document',
      tag: 'Admin: documents and templates',
      auth: 'admin',
      responses: { 200: { description: 'The inspection.', body: inspectionSchema } },
      errors: INPUT_ERRORS,
      handler: async ({ params }, _req, res) => {
        res.json(inspectionJson(await tools.inspectAsAdmin({ document_id: params.document_id })));
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/documents/:document_id/thumbnail',
      summary: 'Any stored document’s page as a small PNG',
      tag: 'Admin: documents and templates',
      auth: 'admin',
      query: thumbnailQuerySchema,
      responses: { 200: { description: 'The PNG.', body: 'image' } },
      errors: INPUT_ERRORS,
      handler: async ({ params, query }, _req, res) => {
        sendThumbnail(res, await tools.thumbnail(undefined, params.document_id!, query.page, query.width));
      },
    }),
  ];
}

function sendImages(res: Response, result: ImagesResult): void {
  res
    .status(200)
    .type(result.contentType)
    .set({ 'Content-Disposition': contentDisposition(result.filename), 'X-Page-Count': String(result.pages) });
  if (result.usage) res.set(usageHeaders(result.usage));
  res.end(Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength));
}

function sendThumbnail(res: Response, png: Uint8Array): void {
  // A stored document never changes: the browser may keep its thumbnail (private: it is one key's).
  res.status(200).type('image/png').set('Cache-Control', 'private, max-age=3600');
  res.end(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
}

/** The inspection in the wire's snake_case; the Info dictionary's keys stay as the PDF spells them. */
export function inspectionJson(inspection: PdfInspection): unknown {
  const { info, ...rest } = inspection;
  return { ...(snakeKeys(rest) as object), info };
}

function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeKeys(inner)]));
}
