// Reads the body of a call that works on one PDF a user holds (services/pdf-tools/pdf-input.ts): JSON with
// pdf as base64 or a document_id, or multipart/form-data with the PDF in a part named file and
// the other fields as form fields (text, or JSON for objects, arrays, numbers and booleans).
// Either way the fields are validated by the call's own schema.

import type { Request } from 'express';
import type { z } from 'zod';
import { ApiError } from '../errors.ts';
import { type BodyLimit, bodyTooLarge } from './body-limits.ts';
import { parseMultipart } from './multipart.ts';
import { parseJsonBytes, readRawBody } from './raw-body.ts';
import { parseInput } from './validation.ts';

/** Form fields taken as text as they are; every other field is JSON when it parses as JSON. */
const TEXT_FIELDS = new Set(['document_id', 'password', 'filename', 'preset_id']);

/** The call's validated fields, with an uploaded file part as pdf and its name as filename. */
export async function readPdfUpload<S extends z.ZodType>(
  req: Request,
  schema: S,
  limit: BodyLimit,
): Promise<z.output<S> & { pdf?: Uint8Array; filename?: string }> {
  const body = await readRawBody(req, limit.bytes, () => new ApiError('payload_too_large', bodyTooLarge(limit)));
  if (req.is('application/json')) return parseInput(schema, parseJsonBytes(body)) as z.output<S> & { pdf?: Uint8Array; filename?: string };
  if (!req.is('multipart/form-data'))
    throw new ApiError(
      'invalid_request',
      'Send JSON (Content-Type: application/json) with pdf or document_id, or multipart/form-data with the PDF in a part named file.',
    );
  const form = await parseMultipart(req.headers, body, { files: 1, fields: 32 });
  const stray = form.files.find((file) => file.field !== 'file');
  if (stray) throw new ApiError('invalid_request', `The file part ${stray.field} is not expected: send the PDF in a part named file.`);
  const fields: Record<string, unknown> = {};
  for (const [name, raw] of form.fields) fields[name] = TEXT_FIELDS.has(name) ? raw : jsonOrText(raw);
  const parsed = parseInput(schema, fields, 'the form fields') as z.output<S> & { pdf?: Uint8Array; filename?: string };
  const file = form.files[0];
  if (!file) return parsed;
  if (parsed.pdf !== undefined) throw new ApiError('invalid_request', 'Send the PDF once: a part named file, or the pdf field, not both.');
  return { ...parsed, pdf: file.bytes, filename: parsed.filename ?? (file.filename || undefined) };
}

function jsonOrText(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
