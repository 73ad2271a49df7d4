// Reads the body of a call that takes one e-invoice XML: the XML itself (application/xml or
// text/xml), or JSON {"xml": "..."}. Both are bounded by the XML reader's 20 MB before anything
// is parsed (413), and an empty body is a 400: there is nothing to read.

import type { Request } from 'express';
import { MAX_XML_BYTES } from '../einvoice/xml/safe-xml.ts';
import { ApiError } from '../errors.ts';
import { parseJsonBytes, readRawBody } from './raw-body.ts';
import { einvoiceXmlRequestSchema } from './schemas/einvoice.ts';
import { parseInput } from './validation.ts';

/** A JSON body escapes the XML's quotes and line breaks: room for that above the XML's own bound. */
const MAX_JSON_BYTES = MAX_XML_BYTES + 2 * 1024 * 1024;
const XML_TYPES = ['application/xml', 'text/xml'];

/** The XML's bytes (raw body) or text (JSON body). */
export async function readEInvoiceUpload(req: Request): Promise<Uint8Array | string> {
  // The media type as sent: req.is() answers null for an empty body, which is refused below instead.
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const json = type === 'application/json';
  if (!json && !XML_TYPES.includes(type))
    throw new ApiError('invalid_request', 'Send the XML as the body (Content-Type: application/xml or text/xml), or JSON {"xml": "..."}.');
  const limit = json ? MAX_JSON_BYTES : MAX_XML_BYTES;
  const body = await readRawBody(
    req,
    limit,
    () => new ApiError('payload_too_large', `The request body is larger than the ${limit / 1024 / 1024} MB limit of e-invoices.`),
  );
  if (body.byteLength === 0) throw new ApiError('invalid_request', 'The request body is empty: send the e-invoice XML.');
  if (!json) return body;
  return parseInput(einvoiceXmlRequestSchema, parseJsonBytes(body)).xml;
}
