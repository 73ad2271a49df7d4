// The JSON body parser every operation uses, with the limits that keep a hostile body a 4xx:
// a byte limit counted while reading (chunked bodies too, before anything is parsed), a nesting
// depth checked on the raw bytes before JSON.parse (validation recurses, so a body nested 50,000
// levels deep would otherwise end as a stack overflow), and a 413 the client can read.
// What the fields mean is each operation's schema; how errors look is error-handler.ts.

import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/** CONTRACT: request bodies over 6 MB are answered 413. */
export const MAX_BODY = '6mb';

/** Deepest nesting of arrays and objects a body may have; real requests stay under ten. */
export const MAX_JSON_DEPTH = 64;

/** A body nested deeper than MAX_JSON_DEPTH (error-handler.ts answers 400 invalid_request). */
export class JsonTooDeepError extends Error {
  override readonly name = 'JsonTooDeepError';
  constructor(readonly maxDepth: number) {
    super(`the request body nests arrays or objects deeper than ${maxDepth} levels`);
  }
}

// After a 413 the rest of the body is read and thrown away, so the client, still sending, can
// read the answer instead of meeting a reset; an endless or huge upload is cut off after this.
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const DRAIN_LIMIT_MS = 10_000;

/** express.json with the byte limit (default MAX_BODY) and the depth check. */
export function jsonBody(limit: string = MAX_BODY): RequestHandler {
  const parse = express.json({
    limit,
    strict: true,
    verify: (_req, _res, buffer) => {
      if (nestingDepthExceeds(buffer, MAX_JSON_DEPTH)) throw new JsonTooDeepError(MAX_JSON_DEPTH);
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    parse(req, res, (error?: unknown) => {
      if ((error as { type?: string } | undefined)?.type === 'entity.too.large') {
        drainThen(req, () => next(error));
        return;
      }
      next(error as Error | undefined);
    });
  };
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
      if (byte === 0x5c) i++; // a backslash escapes the next byte (\" and \\)
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

/** Reads and discards what is left of the body (within bounds), then calls done once. */
function drainThen(req: Request, done: () => void): void {
  if (req.readableEnded || req.destroyed) return done();
  let finished = false;
  let drained = 0;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    req.removeListener('data', count);
    done();
  };
  const count = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) {
      // The answer says the connection will not be reused: the rest of the upload is not wanted.
      req.res?.setHeader('Connection', 'close');
      finish();
    }
  };
  const timer = setTimeout(() => {
    req.res?.setHeader('Connection', 'close');
    finish();
  }, DRAIN_LIMIT_MS);
  req.on('data', count);
  req.once('end', finish);
  req.once('close', finish);
  req.resume();
}
