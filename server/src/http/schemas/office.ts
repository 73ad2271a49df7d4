// Wire schemas of office conversions (docs/api.md#office-documents): POST /v1/convert/office as
// JSON or multipart, and the `office` source of batch items and merge sources.

import { z } from 'zod';
import { OFFICE_KINDS } from '../../office/file-kinds.ts';
import { officeOptionsSchema } from '../../office/office-options.ts';
import type { OfficeRequest } from '../../services/office/office.ts';
import { filenameSchema, renderFields } from './render.ts';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

const fileBase64 = z.string().min(1).regex(BASE64, { message: 'must be base64 (no data: prefix, no line breaks)' }).describe('The file’s bytes, base64.');

const inputFilename = z
  .string()
  .min(1)
  .max(255)
  .describe(`The file’s name: its extension says what it is (${OFFICE_KINDS.join(', ')}).`);

const KINDS_TEXT = OFFICE_KINDS.join(', ');

/** An office file as a batch item or merge source: converted with its own options. */
export const officeSourceSchema = z
  .strictObject({
    file: fileBase64,
    filename: inputFilename,
    options: officeOptionsSchema.optional(),
    data: renderFields.data.optional().describe('Values for the placeholders of options.header and options.footer.'),
  })
  .describe(`An office file (${KINDS_TEXT}) converted by LibreOffice with its own options; charged one document like a render.`);

/** A render request whose source is an office file (the hot folder's office files and {office} request files). */
export const officeRenderRequestSchema = z
  .strictObject({
    office: officeSourceSchema,
    store: renderFields.store.optional(),
    filename: renderFields.filename.optional(),
  })
  .describe('An office file to convert, kept and charged as a render.');

/** Whether a request body names an office source (and so is validated by officeRenderRequestSchema). */
export function isOfficeRequest(json: unknown): boolean {
  return typeof json === 'object' && json !== null && 'office' in json;
}

/** Fields every form of the call shares. */
const commonFields = {
  options: officeOptionsSchema.default(officeOptionsSchema.parse({})),
  merge: z.boolean().default(false).describe('Join several files into one PDF, in the order sent (each charged one document).'),
  data: renderFields.data.optional().describe('Values for the placeholders of options.header and options.footer.'),
  store: renderFields.store.optional(),
  output_filename: filenameSchema.optional().describe('Name of the PDF (Content-Disposition, stored copy). Default: the first file’s name with .pdf.'),
};

/** The form fields of a multipart call, once turned into values (the files are read apart). */
export const officeFormFieldsSchema = z.strictObject(commonFields);

export const officeJsonRequestSchema = z
  .strictObject({
    file: fileBase64.optional(),
    filename: inputFilename.optional(),
    files: z
      .array(z.strictObject({ file: fileBase64, filename: inputFilename }))
      .min(1)
      .max(50)
      .optional()
      .describe('Several files (with merge: true).'),
    ...commonFields,
  })
  .superRefine((body, ctx) => {
    if (body.files !== undefined && (body.file !== undefined || body.filename !== undefined))
      ctx.addIssue({ code: 'custom', path: ['files'], message: 'takes the place of file and filename: send one or the other', input: undefined });
    else if (body.files === undefined && (body.file === undefined || body.filename === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [body.file === undefined ? 'file' : 'filename'],
        message: 'is required (file: base64 bytes, filename: its name)',
        input: undefined,
      });
  })
  .transform(
    (body): OfficeRequest => ({
      files: (body.files ?? [{ file: body.file!, filename: body.filename! }]).map(({ file, filename }) => ({
        filename,
        bytes: new Uint8Array(Buffer.from(file, 'base64')),
      })),
      options: body.options,
      data: body.data,
      merge: body.merge,
      store: body.store,
      output_filename: body.output_filename,
    }),
  );

/** For the OpenAPI document: the multipart form of the call. */
export const officeMultipartSchema = z
  .object({
    file: z
      .string()
      .meta({ format: 'binary' })
      .describe(`The office file (repeat the part, with merge=true, for several). Its name’s extension says what it is: ${KINDS_TEXT}.`),
    options: z.string().optional().describe('All options as one JSON object, as in the JSON form. Or give them as fields of their own:'),
    ...Object.fromEntries(
      Object.keys(officeOptionsSchema.shape).map((name) => [
        name,
        z
          .string()
          .optional()
          .describe(`options.${name} (true/false, a number, text, or JSON for metadata, watermark, encrypt and a header or footer with variants)`),
      ]),
    ),
    merge: z.string().optional().describe('true: join several files into one PDF.'),
    store: z.string().optional().describe('true: keep a copy (as for a render).'),
    data: z.string().optional().describe('JSON object: values for the placeholders of options.header and options.footer.'),
    output_filename: z.string().optional(),
  })
  .describe('multipart/form-data');
