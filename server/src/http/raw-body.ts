// Reads a request body as raw bytes (asset uploads), refusing past a cap before buffering more:
// a Content-Length over it is refused without reading, a longer chunked body as soon as it gets there.

import type { Request } from 'express';
import type { ApiError } from '../errors.ts';

/** The body's bytes; throws tooLarge() once it is known to exceed maxBytes. */
export async function readRawBody(req: Request, maxBytes: number, tooLarge: () => ApiError): Promise<Uint8Array> {
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    // Node discards the rest of the upload once the error response is written.
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
