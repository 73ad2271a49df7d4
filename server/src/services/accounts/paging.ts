// Cursor paging as the list endpoints share it (docs/api.md#paging): a cursor that the
// index did not make is the caller's mistake, a 400 naming the field.

import { ApiError } from '../../errors.ts';
import { InvalidCursorError, type Page } from '../../stores/newest-first-index.ts';

export type { Page };

/** Runs a page lookup (in memory or in PostgreSQL), turning a bad cursor into 400 invalid_request. */
export async function pageOrBadCursor<T>(list: () => Page<T> | Promise<Page<T>>): Promise<Page<T>> {
  try {
    return await list();
  } catch (error) {
    if (error instanceof InvalidCursorError) throw new ApiError('invalid_request', error.message);
    throw error;
  }
}
