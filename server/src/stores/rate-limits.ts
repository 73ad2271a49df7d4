// Counts of recent events per client over a sliding window (the playground's per-address limit,
// docs/api.md#playground). Two implementations: this process's memory (the files setup: one
// instance, nothing worth keeping across a restart) and PostgreSQL (stores/pg/rate-limits.ts), so
// several instances behind one address enforce one limit. What a limit means is the caller's.

/** How many events a client may have in a window. */
export interface RateRule {
  limit: number;
  windowMs: number;
}

/** The answer to one take. */
export interface RateTake {
  allowed: boolean;
  /** Events counted in the window after this take (this one included when allowed). */
  count: number;
  /** When the oldest counted event happened (ms since the epoch); `now` when none is counted. */
  oldestAt: number;
}

export interface RateLimitStore {
  /** Counts one event for the client at `now` if fewer than rule.limit are in the window ending there; one atomic step. */
  take(client: string, rule: RateRule, now: number): Promise<RateTake>;
}

/**
 * The in-memory store: a client's timestamps are at most `limit` long and idle clients are
 * dropped on the next sweep (at most once a window), so memory stays bounded.
 */
export class MemoryRateLimits implements RateLimitStore {
  private readonly seen = new Map<string, number[]>();
  private lastSweep = 0;

  async take(client: string, rule: RateRule, now: number): Promise<RateTake> {
    this.sweep(now, rule.windowMs);
    const recent = (this.seen.get(client) ?? []).filter((at) => at > now - rule.windowMs);
    const allowed = recent.length < rule.limit;
    if (allowed) recent.push(now);
    this.seen.set(client, recent);
    return { allowed, count: recent.length, oldestAt: recent[0] ?? now };
  }

  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < windowMs) return;
    this.lastSweep = now;
    for (const [client, times] of this.seen) {
      if ((times.at(-1) ?? 0) <= now - windowMs) this.seen.delete(client);
    }
  }
}
