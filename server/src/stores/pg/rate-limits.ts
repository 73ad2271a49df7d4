// Sliding-window rate counts in PostgreSQL (stores/rate-limits.ts), one statement per take: an
// upsert on the client's row, which PostgreSQL locks, so concurrent takes on any number of
// instances are counted one after the other and never let more than the limit through.

import type pg from 'pg';
import type { RateLimitStore, RateRule, RateTake } from '../rate-limits.ts';

// In DO UPDATE every expression reads the row as it was, so `allowed` and `hits` agree. $1 client,
// $2 now (ms), $3 limit, $4 window (ms).
const TAKE = `
INSERT INTO rate_limits AS r (client, hits, allowed, last_at)
VALUES ($1::text, CASE WHEN $3::int > 0 THEN ARRAY[$2::bigint] ELSE '{}'::bigint[] END, $3::int > 0, $2::bigint)
ON CONFLICT (client) DO UPDATE SET
  allowed = (SELECT count(*) FROM unnest(r.hits) AS h WHERE h > $2::bigint - $4::bigint) < $3::int,
  hits = ARRAY(SELECT h FROM unnest(r.hits) AS h WHERE h > $2::bigint - $4::bigint ORDER BY h)
    || CASE WHEN (SELECT count(*) FROM unnest(r.hits) AS h WHERE h > $2::bigint - $4::bigint) < $3::int THEN ARRAY[$2::bigint] ELSE '{}'::bigint[] END,
  last_at = GREATEST(r.last_at, $2::bigint)
RETURNING allowed, cardinality(hits) AS count, hits[1] AS oldest`;

// Once a window, the same statement also drops the rows of clients idle for a whole window (not the
// caller's own row, which the upsert is about to lock).
const SWEEP_AND_TAKE = `WITH swept AS (DELETE FROM rate_limits WHERE last_at <= $2::bigint - $4::bigint AND client <> $1::text) ${TAKE.trim()}`;

export class PgRateLimits implements RateLimitStore {
  private lastSweep = 0;

  constructor(private readonly pool: pg.Pool) {}

  async take(client: string, rule: RateRule, now: number): Promise<RateTake> {
    const sweep = now - this.lastSweep >= rule.windowMs;
    if (sweep) this.lastSweep = now;
    const { rows } = await this.pool.query<{ allowed: boolean; count: number; oldest: string | null }>(sweep ? SWEEP_AND_TAKE : TAKE, [
      client,
      now,
      rule.limit,
      rule.windowMs,
    ]);
    const row = rows[0]!;
    return { allowed: row.allowed, count: Number(row.count), oldestAt: row.oldest === null ? now : Number(row.oldest) };
  }
}
