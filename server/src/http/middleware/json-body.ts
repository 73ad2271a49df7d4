// The JSON body parser every operation uses, with the limits that keep a hostile body a 4xx:
// a byte limit counted while reading (chunked bodies too, before anything is parsed; body-parser
// reads off the rest of an oversize body before the 413 goes out, so the client can read it),
// and a nesting depth checked on the raw bytes before JSON.parse (validation recurses, so a body
// nested 50,000 levels deep would otherwise end as a stack overflow).
// What the fields mean is each operation's schema; how errors look is error-handler.ts.

import express, { type RequestHandler } from 'express';
import { type BodyLimit, REQUEST_BODY } from '../body-limits.ts';

/** Deepest nesting of arrays and objects a body may have; real requests stay under ten, and field checks (sample_data: 64) name their field below it. */
export const MAX_JSON_DEPTH = 128;

/** A body nested deeper than MAX_JSON_DEPTH (error-handler.ts answers 400 invalid_request). */
export class JsonTooDeepError extends Error {
  override readonly name = 'JsonTooDeepError';
  constructor(readonly maxDepth: number) {
    super(`the request body nests arrays or objects deeper than ${maxDepth} levels`);
  }
}

/** express.json with the byte limit (default REQUEST_BODY, 6 MB) and the depth check; a 413 carries the limit for its sentence. */
export function jsonBody(limit: BodyLimit = REQUEST_BODY): RequestHandler {
  const parse = express.json({
    limit: limit.bytes,
    strict: true,
    verify: (_req, _res, buffer) => {
      if (nestingDepthExceeds(buffer, MAX_JSON_DEPTH)) throw new JsonTooDeepError(MAX_JSON_DEPTH);
    },
  });
  return (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      if ((error as { type?: string } | undefined)?.type === 'entity.too.large') Object.assign(error as object, { bodyLimit: limit });
      next(error);
    });
}

/**
 * Whether the JSON text nests arrays/objects deeper than max, counting brackets outside strings.
 * One pass over the bytes, no allocation: cheap next to JSON.parse itself.
 */
export function nestingDepthExceeds(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (inString) {
      if (byte === 0x5c)
        i++; // a backslash escapes the next byte (\" and \\)
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) {
      inString = true;
    } else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > max) return true;
    } else if (byte === 0x5d || byte === 0x7d) {
      depth--;
    }
  }
  return false;
}
