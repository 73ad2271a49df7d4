// The one place where errors become responses: API errors pass through; body-parser failures
// become invalid_json or payload_too_large; the lower layers' own errors map to their contract
// status and code (wire/error-mapping.ts, shared with background work); anything else is a 500
// with a generic sentence. Always `{detail, code}`, and a code's own fields beside (einvoice_invalid's rules).

import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { BlockedUrlError } from '../guard/url-check.ts';
import { toApiError } from '../wire/error-mapping.ts';
import { JsonTooDeepError } from './middleware/json-body.ts';
import { type BodyLimit, bodyTooLarge, REQUEST_BODY } from './body-limits.ts';
import { receiptOfError } from '../services/render/render.ts';
import { receiptPath } from '../services/accounts/receipts.ts';

/** Maps any thrown value to an ApiError: request-body failures here, everything else as background work maps it. */
export function toHttpError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof JsonTooDeepError) {
    return new ApiError('invalid_request', `The request body nests arrays or objects deeper than ${error.maxDepth} levels.`);
  }
  const parserError = error as { type?: string; status?: number; body?: unknown; code?: unknown };
  if (parserError?.type === 'entity.too.large') {
    const { bodyLimit, limit } = parserError as { bodyLimit?: BodyLimit; limit?: number };
    return new ApiError('payload_too_large', bodyTooLarge(bodyLimit ?? (limit === undefined ? REQUEST_BODY : { bytes: limit })));
  }
  if (parserError?.type === 'entity.parse.failed') {
    // The strict parser also refuses valid JSON that is not an object or array ("42", "null").
    if (isJsonScalar(parserError.body)) return new ApiError('invalid_request', 'The request body must be a JSON object.');
    return new ApiError('invalid_json', 'The request body is not valid JSON.');
  }
  // A compressed body that does not inflate: body-parser passes zlib's error on with status 400 and no type.
  if (parserError?.status === 400 && typeof parserError.code === 'string' && parserError.code.startsWith('Z_')) {
    return new ApiError('invalid_request', 'The request body could not be decompressed; check Content-Encoding.');
  }
  if (parserError?.type === 'encoding.unsupported' || parserError?.type === 'charset.unsupported') {
    return new ApiError('invalid_request', 'The request body encoding is not supported; send UTF-8 JSON.');
  }
  if (parserError?.status === 400 && parserError.type) return new ApiError('invalid_request', 'The request body could not be read.');
  return toApiError(error);
}

export function errorHandler(log: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const api = toHttpError(error);
    const requestId = res.getHeader('X-Request-Id');
    if (api.code === 'internal_error' || api.code === 'insufficient_storage') {
      log.error({ request_id: requestId, err: error }, 'unhandled error');
    } else if (error instanceof BlockedUrlError) {
      log.warn({ request_id: requestId, reason: error.reason }, 'url blocked');
    }
    // A failed render that kept a receipt says where, as a success does (a playground one under its own path).
    const receipt = receiptOfError(error);
    if (receipt) res.setHeader('X-Render-Receipt', receiptPath(receipt, req.path.startsWith('/v1/playground/') ? 'playground' : 'pdf'));
    res
      .status(api.status)
      .set(api.headers)
      .json({ detail: api.detail, code: api.code, ...api.body });
  };
}

function isJsonScalar(body: unknown): boolean {
  if (typeof body !== 'string') return false;
  try {
    const value: unknown = JSON.parse(body);
    return value === null || typeof value !== 'object';
  } catch {
    return false;
  }
}
