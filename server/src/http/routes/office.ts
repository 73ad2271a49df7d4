// POST /v1/convert/office: read the upload (multipart or JSON), convert through OfficeService,
// answer the PDF bytes like /v1/pdf.

import type { Request } from 'express';
import { ApiError } from '../../errors.ts';
import { officeOptionsSchema } from '../../office/office-options.ts';
import { OFFICE_KINDS } from '../../office/file-kinds.ts';
import type { OfficeRequest, OfficeService } from '../../services/office/office.ts';
import { USAGE_HEADER_DOCS } from '../../wire/usage-headers.ts';
import { accountOf } from '../middleware/auth.ts';
import { parseMultipart, type FormFile } from '../multipart.ts';
import { operation } from '../operation.ts';
import { parseJsonBytes, readRawBody } from '../raw-body.ts';
import { officeFormFieldsSchema, officeJsonRequestSchema, officeMultipartSchema } from '../schemas/office.ts';
import { parseInput } from '../validation.ts';
import { STORED_HEADER_DOCS, requestIdOf, sendPdf } from './render.ts';

const MAX_FILES = 50;

export function officeOperations(service: OfficeService, maxUploadBytes: number) {
  const megabytes = Math.round((maxUploadBytes / 1024 / 1024) * 10) / 10;
  return [
    operation({
      method: 'post',
      path: '/v1/convert/office',
      summary: 'Convert Word, Excel, PowerPoint, OpenDocument, RTF, text or CSV files to PDF',
      tag: 'Render',
      auth: 'api_key',
      bodies: { 'multipart/form-data': officeMultipartSchema, 'application/json': officeJsonRequestSchema },
      description:
        `One file (${OFFICE_KINDS.join(', ')}) as a multipart part named file, or as JSON {file: base64, filename}, converted by LibreOffice ` +
        '(a warm pool; macros never run, links to other files and to the network are never followed). Several files with merge: true become ' +
        'one PDF in the order sent. Charged one document per file, nothing when the call fails; keys share the converters fairly as they share ' +
        'the renderer. store and the usage headers as for POST /v1/pdf. ' +
        `The whole body is limited to ${megabytes} MB (OFFICE_MAX_UPLOAD_BYTES). Errors name the file: a name we do not convert is 400 ` +
        'unsupported_file_type; bytes that are not what the name says, or a damaged file, 422 office_conversion_failed; a protected file ' +
        'without options.password 422 password_required (a wrong one: password_incorrect); a zip that would unpack past 256 MB 413; ' +
        'a conversion past options.timeout_ms 504 render_timeout. A server without LibreOffice answers 501 office_unavailable.',
      responses: {
        200: { description: 'The PDF. A 402 carries the same usage headers.', body: 'pdf', headers: { ...USAGE_HEADER_DOCS, ...STORED_HEADER_DOCS } },
      },
      errors: [
        'invalid_json',
        'invalid_request',
        'unsupported_file_type',
        'unauthorized',
        'quota_exceeded',
        'forbidden',
        'payload_too_large',
        'password_required',
        'password_incorrect',
        'office_conversion_failed',
        'storage_unavailable',
        'office_unavailable',
        'renderer_busy',
        'render_timeout',
      ],
      handler: async (_input, req, res) => {
        sendPdf(res, await service.convert(await readOfficeRequest(req, await readBody(req)), accountOf(res), requestIdOf(res)));
      },
    }),
    operation({
      method: 'post',
      path: '/admin/v1/convert/office/preview',
      summary: 'Convert office files for the admin window (not stored, not charged)',
      tag: 'Admin: documents and templates',
      auth: 'admin',
      bodies: { 'multipart/form-data': officeMultipartSchema, 'application/json': officeJsonRequestSchema },
      description: 'The same body and conversion as POST /v1/convert/office, for the admin window’s playground: nothing is stored or charged.',
      responses: { 200: { description: 'The PDF.', body: 'pdf' } },
      errors: [
        'invalid_json',
        'invalid_request',
        'unsupported_file_type',
        'unauthorized',
        'payload_too_large',
        'password_required',
        'password_incorrect',
        'office_conversion_failed',
        'office_unavailable',
        'renderer_busy',
        'render_timeout',
      ],
      handler: async (_input, req, res) => {
        sendPdf(res, await service.preview(await readOfficeRequest(req, await readBody(req))));
      },
    }),
  ];

  function readBody(req: Request): Promise<Uint8Array> {
    return readRawBody(
      req,
      maxUploadBytes,
      () => new ApiError('payload_too_large', `The request body is larger than the ${megabytes} MB limit of office uploads.`),
    );
  }
}

/** The call as OfficeService takes it, from either form of body. */
async function readOfficeRequest(req: Request, body: Uint8Array): Promise<OfficeRequest> {
  if (req.is('application/json')) return parseInput(officeJsonRequestSchema, parseJsonBytes(body));
  if (!req.is('multipart/form-data'))
    throw new ApiError(
      'invalid_request',
      'Send the file as multipart/form-data (a part named file), or as JSON {file: base64, filename} with Content-Type: application/json.',
    );
  const form = await parseMultipart(req.headers, body, { files: MAX_FILES, fields: 64 });
  const files = form.files.filter((file) => file.field === 'file' || file.field === 'files');
  const stray = form.files.find((file) => !['file', 'files', 'attachments'].includes(file.field));
  if (stray) throw new ApiError('invalid_request', `The file part ${stray.field} is not expected: name file parts "file" (or "attachments").`);
  const unnamed = files.find((file) => !file.filename);
  if (unnamed) throw new ApiError('invalid_request', 'A file part has no filename: its extension says what kind of file it is.');
  const fields = attachParts(formValues(form.fields), form.files);
  const parsed = parseInput(officeFormFieldsSchema, fields, 'the form fields');
  return { ...parsed, files: files.map(({ filename, bytes }) => ({ filename, bytes })) };
}

// Text as it is; everything else a form field carries is JSON (true, 90, {"title": ...}). A header
// or footer is HTML text, or a JSON object with variants.
const TEXT_FIELDS = new Set(['page_ranges', 'pdf_a', 'password', 'output_filename', 'header_footer_fit', 'header_footer_margin']);
const HTML_OR_JSON_FIELDS = new Set(['header', 'footer']);
const OPTION_FIELDS = new Set(Object.keys(officeOptionsSchema.shape));

/** Form fields as the JSON form's values: options gathered from `options` (JSON) and fields of their own. */
function formValues(fields: Map<string, string>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const options = (fields.has('options') ? jsonField('options', fields.get('options')!) : {}) as Record<string, unknown>;
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new ApiError('invalid_request', 'The form field options must be a JSON object.');
  for (const [name, raw] of fields) {
    if (name === 'options') continue;
    const value = TEXT_FIELDS.has(name) || (HTML_OR_JSON_FIELDS.has(name) && !raw.trimStart().startsWith('{')) ? raw : jsonField(name, raw);
    if (OPTION_FIELDS.has(name)) options[name] = value;
    else values[name] = value;
  }
  return { ...values, options };
}

/**
 * File parts named "attachments" become options.attachments entries (docs/api.md#attachments): an
 * entry of the attachments field with that filename and no content takes the part's bytes (so it can
 * say mime_type, description, relationship); any other part is added as a file of its own.
 */
function attachParts(values: Record<string, unknown>, parts: FormFile[]): Record<string, unknown> {
  const uploads = parts.filter((part) => part.field === 'attachments');
  if (uploads.length === 0) return values;
  const options = values.options as Record<string, unknown>;
  const listed = Array.isArray(options.attachments) ? (options.attachments as Record<string, unknown>[]) : [];
  for (const part of uploads) {
    const content = Buffer.from(part.bytes).toString('base64');
    const entry = listed.find((item) => item.filename === part.filename && item.content === undefined && item.document_id === undefined);
    if (entry) entry.content = content;
    else listed.push({ filename: part.filename, content });
  }
  return { ...values, options: { ...options, attachments: listed } };
}

function jsonField(name: string, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', `The form field ${name} must be JSON (true, false, a number or an object); got ${JSON.stringify(raw.slice(0, 40))}.`);
  }
}
