// Reads the body of a call that takes one e-invoice: the XML itself (application/xml or text/xml),
// a hybrid PDF itself (application/pdf), or JSON {"xml": "..."} / {"pdf": "<base64>"} with the
// call's other fields. Each is bounded before anything is parsed (413): an XML by the XML reader's
// 20 MB, a PDF by the 100 MB of every PDF input; an empty body is a 400: there is nothing to read.

import type { Request } from 'express';
import type { z } from 'zod';
import { MAX_XML_BYTES } from '../einvoice/xml/safe-xml.ts';
import { PDF_INPUT_LIMITS } from '../pdf/pdf-open.ts';
import { ApiError } from '../errors.ts';
import type { EInvoiceInput } from '../services/einvoice/source.ts';
import { PDF_BODY } from './body-limits.ts';
import { parseJsonBytes, readRawBody } from './raw-body.ts';
import { parseInput } from './validation.ts';

const MiB = 1024 * 1024;
const XML_TYPES = ['application/xml', 'text/xml'];
/** A JSON body carries a PDF as base64 (PDF_BODY), or an XML with its quotes and line breaks escaped. */
const LIMITS: Record<string, number> = { xml: MAX_XML_BYTES, pdf: PDF_INPUT_LIMITS.bytes, json: Math.max(PDF_BODY.bytes, MAX_XML_BYTES + 2 * MiB) };

/** The invoice sent (XML or PDF) and, from a JSON body, the call's other fields (a raw body has none). */
export async function readEInvoiceUpload<S extends z.ZodType<{ xml?: string; pdf?: Uint8Array }>>(
  req: Request,
  schema: S,
): Promise<{ input: EInvoiceInput; fields: Partial<z.output<S>> }> {
  // The media type as sent: req.is() answers null for an empty body, which is refused below instead.
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const kind = type === 'application/json' ? 'json' : type === 'application/pdf' ? 'pdf' : XML_TYPES.includes(type) ? 'xml' : undefined;
  if (!kind)
    throw new ApiError(
      'invalid_request',
      'Send the XML or the hybrid PDF as the body (Content-Type: application/xml, text/xml or application/pdf), or JSON {"xml": "..."} or {"pdf": "<base64>"}.',
    );
  const limit = LIMITS[kind]!;
  const body = await readRawBody(
    req,
    limit,
    () =>
      new ApiError(
        'payload_too_large',
        `The request body is larger than the ${Math.round(limit / MiB)} MB limit of ${kind === 'pdf' ? 'PDF inputs' : 'e-invoices'}.`,
      ),
  );
  if (body.byteLength === 0) throw new ApiError('invalid_request', 'The request body is empty: send the e-invoice XML or PDF.');
  if (kind === 'xml') return { input: { xml: body }, fields: {} };
  if (kind === 'pdf') return { input: { pdf: body }, fields: {} };
  const fields = parseInput(schema, parseJsonBytes(body)) as z.output<S>;
  return { input: fields.xml !== undefined ? { xml: fields.xml } : { pdf: fields.pdf! }, fields };
}
