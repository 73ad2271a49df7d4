// Newest-first pages over a PostgreSQL table, with the same opaque cursors as the in-memory
// index of the files stores (stores/newest-first-index.ts), so a cursor means the same thing
// whichever instance or store answers the next page. Ids compare byte-wise (COLLATE "C"), as
// JavaScript compares them.

import type { Queryable } from './transaction.ts';
import { decodeCursor, encodeCursor, type Page } from '../newest-first-index.ts';

export interface PageQuery {
  /** The table (or join) to page over; must expose created_at and id. */
  from: string;
  /** The selected columns. */
  columns: string;
  /** Extra conditions (SQL) and their values, numbered from $1. */
  where: string[];
  values: unknown[];
  limit: number;
  cursor: string | undefined;
}

/** One page of rows, newest first; the cursor throws InvalidCursorError when it was not ours. */
export async function pageNewestFirst<Row extends { created_at: Date; id: string }, T>(
  db: Queryable,
  query: PageQuery,
  map: (row: Row) => T,
): Promise<Page<T>> {
  const where = [...query.where];
  const values = [...query.values];
  if (query.cursor !== undefined) {
    const position = decodeCursor(query.cursor);
    values.push(new Date(position.createdMs), position.id);
    where.push(`(created_at < $${values.length - 1} OR (created_at = $${values.length - 1} AND id COLLATE "C" < $${values.length}))`);
  }
  values.push(query.limit + 1);
  const sql = `SELECT ${query.columns} FROM ${query.from} ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT $${values.length}`;
  const { rows } = await db.query<Row>(sql, values);
  const more = rows.length > query.limit;
  const items = rows.slice(0, query.limit);
  const last = items[items.length - 1];
  return { items: items.map(map), nextCursor: more && last ? encodeCursor({ createdMs: last.created_at.getTime(), id: last.id }) : null };
}
