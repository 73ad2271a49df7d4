// The background batch backlog's caps (issue 11) as the caller meets them: a batch that would go
// past a key's cap is 429 too_many_batches; past the server's, 503 renderer_busy; both with
// Retry-After. The stores count and admit (stores/batch-backlog.ts), shared by every instance on
// PostgreSQL.

import { ApiError } from '../../errors.ts';
import type { BacklogFullError } from '../../stores/batch-backlog.ts';

/** The answer to a full backlog; renderSlots for the Retry-After estimate (about one item per slot per second). */
export function backlogFullAnswer(error: BacklogFullError, renderSlots: number): ApiError {
  const { load, limits } = error;
  const retryAfter = String(Math.min(600, Math.max(5, Math.ceil(load.items / renderSlots))));
  if (error.scope === 'key') {
    return new ApiError(
      'too_many_batches',
      `This key already has ${load.items} background batch items (${load.bytes} bytes of requests) waiting; the limit is ${limits.itemsPerKey} items and ` +
        `${limits.bytesPerKey} bytes per key. Retry once earlier batches have completed.`,
      { 'Retry-After': retryAfter },
    );
  }
  return new ApiError('renderer_busy', 'The server has too many background batch items waiting; retry later.', { 'Retry-After': retryAfter });
}
