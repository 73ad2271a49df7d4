// The request body limits of docs/api.md#limits, sized from the limits they must let through: any
// request's 6 MB, options.attachments' 10 MB together and a PDF input's 100 MB, each carried as
// base64 (a third more). A limit names what it is made of, so a 413 says which part was too large.

import { MAX_ATTACHMENTS_TOTAL_BYTES } from '../pdf/attachment-options.ts';
import { PDF_INPUT_LIMITS } from '../pdf/pdf-open.ts';

const MiB = 1024 * 1024;

/** A body's byte limit and, for the 413's sentence, what it is made of. */
export interface BodyLimit {
  bytes: number;
  /** "6 MB of request plus …": said after the limit in the 413. */
  reason?: string;
}

/** Bytes of `bytes` once base64-encoded. */
export function base64Size(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/** Any request that carries no file: 6 MB. */
export const REQUEST_BODY: BodyLimit = { bytes: 6 * MiB };

/** A request that may carry options.attachments (a render, a merge): 6 MB plus the attachments' 10 MB as base64, about 19.3 MB. */
export const ATTACHMENTS_BODY: BodyLimit = {
  bytes: REQUEST_BODY.bytes + base64Size(MAX_ATTACHMENTS_TOTAL_BYTES),
  reason: 'the 6 MB of a request plus options.attachments, at most 10 MB together, as base64',
};

/** A call on one PDF input (inspect, images): the 100 MB input as base64 and 1 MB of fields, about 134 MB. */
export const PDF_BODY: BodyLimit = {
  bytes: base64Size(PDF_INPUT_LIMITS.bytes) + MiB,
  reason: 'a PDF input of at most 100 MB as base64 plus 1 MB of fields',
};

/** A call on one PDF input that may also attach files (transform, merge): PDF_BODY plus the attachments' 10 MB as base64, about 147 MB. */
export const PDF_AND_ATTACHMENTS_BODY: BodyLimit = {
  bytes: PDF_BODY.bytes + base64Size(MAX_ATTACHMENTS_TOTAL_BYTES),
  reason: 'a PDF input of at most 100 MB and options.attachments of at most 10 MB, both as base64, plus 1 MB of fields',
};

/** How a limit reads in a 413: "20 MB" or "133.3 MB". */
export function shownSize(bytes: number): string {
  const megabytes = Math.round((bytes / MiB) * 10) / 10;
  return bytes >= MiB ? `${megabytes} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** The 413's sentence for a body past `limit`. */
export function bodyTooLarge(limit: BodyLimit): string {
  return `The request body is larger than the ${shownSize(limit.bytes)} limit of this endpoint${limit.reason ? ` (${limit.reason})` : ''}.`;
}
