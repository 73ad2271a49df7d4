// The one place where errors become responses: API errors pass through; the lower layers' own
// errors map to their contract status and code; body-parser failures become invalid_json or
// payload_too_large; anything else is a 500 with a generic sentence. Always `{detail, code}`.

import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { NavigationError, RenderInputError, RenderTimeoutError, RendererBusyError, RendererClosedError, RendererCrashedError } from '../render/errors.ts';
import { BlockedUrlError } from '../guard/url-check.ts';
import { QuotaExceededError, nextMonthStart } from '../accounts/usage.ts';
import { usageHeaders } from './usage-headers.ts';
import { StorageFullError, StoreReadError } from '../stores/durable-file.ts';
import { isDatabaseFull } from '../stores/pg/database.ts';
import { JsonTooDeepError } from './middleware/json-body.ts';

/** Maps any thrown value to an ApiError. Exported for batch results and webhook payloads. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof RendererBusyError) {
    return new ApiError('renderer_busy', 'The renderer is at capacity; retry shortly.', { 'Retry-After': String(error.retryAfterSeconds) });
  }
  if (error instanceof RendererCrashedError || error instanceof RendererClosedError) {
    return new ApiError('renderer_busy', 'The renderer restarted during this render; retry.', { 'Retry-After': '1' });
  }
  if (error instanceof RenderTimeoutError) {
    return new ApiError('render_timeout', `The render did not finish within options.timeout_ms (${error.timeoutMs} ms) while ${error.stage}.`);
  }
  if (error instanceof NavigationError) return new ApiError('navigation_failed', `The url could not be loaded: ${error.message}.`);
  if (error instanceof RenderInputError) return new ApiError('invalid_request', error.message);
  if (error instanceof QuotaExceededError) {
    const { usage } = error;
    return new ApiError(
      'quota_exceeded',
      `The ${usage.planId} plan's allowance of ${usage.limit} documents a month is used up for ${usage.month}; it renews on ${nextMonthStart(usage.month)} (UTC).`,
      usageHeaders(usage),
    );
  }
  // A transaction that hit a full disk rolled back whole, so nothing of the call was kept there either.
  if (error instanceof StorageFullError || isDatabaseFull(error)) {
    return new ApiError('insufficient_storage', 'The server’s disk is full, so nothing of this call was kept; retry once the operator has freed space.');
  }
  // The log names the file; the caller learns that it is the server's problem, not the request's.
  if (error instanceof StoreReadError) return new ApiError('internal_error', 'A stored record this call needs is damaged; the server’s operator has been told.');
  // Security refusals stay generic for the caller; the log has the reason.
  if (error instanceof BlockedUrlError) return new ApiError('url_blocked', 'The url is not allowed: it must be a public http(s) address.');
  if (error instanceof JsonTooDeepError) {
    return new ApiError('invalid_request', `The request body nests arrays or objects deeper than ${error.maxDepth} levels.`);
  }
  const parserError = error as { type?: string; status?: number; body?: unknown; code?: unknown };
  if (parserError?.type === 'entity.too.large') {
    const limit = (parserError as { limit?: number }).limit;
    const shown = limit === undefined ? '6 MB' : limit % (1024 * 1024) === 0 ? `${limit / (1024 * 1024)} MB` : `${Math.round(limit / 1024)} KB`;
    return new ApiError('payload_too_large', `The request body is larger than the ${shown} limit of this endpoint.`);
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
  return new ApiError('internal_error', 'Something went wrong on our side; the error has been logged.');
}

export function errorHandler(log: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    const api = toApiError(error);
    const requestId = res.getHeader('X-Request-Id');
    if (api.code === 'internal_error' || api.code === 'insufficient_storage') {
      log.error({ request_id: requestId, err: error }, 'unhandled error');
    } else if (error instanceof BlockedUrlError) {
      log.warn({ request_id: requestId, reason: error.reason }, 'url blocked');
    }
    res.status(api.status).set(api.headers).json({ detail: api.detail, code: api.code });
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
