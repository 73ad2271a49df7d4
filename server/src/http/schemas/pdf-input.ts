// Wire schema of a PDF a user holds (services/pdf-tools/pdf-input.ts): pdf (base64) or document_id, and the
// password of an encrypted one. Spread into the body of every call that works on one PDF; a
// multipart body gives the bytes as a part named file instead (http/pdf-upload.ts).

import { z } from 'zod';
import { idPattern } from '../../ids.ts';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A PDF as base64 text (a batch item keeps it so until it runs). */
export const pdfBase64Schema = z.string().min(1).regex(BASE64, { message: 'must be base64 (no data: prefix, no line breaks)' });

/** The fields of a PDF input; exactly one of pdf and document_id (or a file part) is checked by readPdfInput. */
export const pdfInputFields = {
  pdf: pdfBase64Schema
    .transform((text) => new Uint8Array(Buffer.from(text, 'base64')))
    .optional()
    .describe('The PDF, base64. Or send the body as multipart/form-data with the PDF in a part named file. Exactly one of pdf, file and document_id.'),
  document_id: z
    .string()
    .regex(idPattern('doc'), { message: 'must look like doc_<id>' })
    .optional()
    .describe('A stored document of this key (another key’s: 404 document_not_found).'),
  password: z
    .string()
    .max(127)
    .optional()
    .describe('Opens an encrypted PDF (its user or owner password). Encrypted without it: 422 password_required; wrong: 422 password_incorrect.'),
};

/** The PDF input alone, as a zod object (for calls that take nothing else). */
export const pdfInputSchema = z.strictObject(pdfInputFields);
