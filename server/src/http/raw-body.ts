// Reads a request body as raw bytes (asset uploads, imports), refusing past a cap before buffering
// more: a Content-Length over it is refused without reading, a longer chunked body as soon as it
// gets there. The stream is never destroyed on refusal: destroying it resets the connection before
// the 413 reaches the client; left flowing, Node reads off the rest once the response is written.

import type { Request } from 'express';
import { ApiError } from '../errors.ts';

/** The body's bytes; throws tooLarge() once it is known to exceed maxBytes. */
export function readRawBody(req: Request, maxBytes: number, tooLarge: () => ApiError): Promise<Uint8Array> {
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= maxBytes) return void chunks.push(chunk);
      stop();
      chunks.length = 0;
      // Discard the rest without buffering it, so the refusal can be written and read.
      req.resume();
      reject(tooLarge());
    };
    const onEnd = () => {
      stop();
      resolve(new Uint8Array(Buffer.concat(chunks)));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** A raw body parsed as JSON; 400 invalid_json when it is not. */
export function parseJsonBytes(body: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    throw new ApiError('invalid_json', 'The request body is not valid JSON.');
  }
}
