// Monthly usage in PostgreSQL, exact across instances (issue 13): a reservation is one
// conditional statement that takes a document only while used + held < the plan's allowance,
// against the row PostgreSQL locks for it, so concurrent renders on any number of instances
// never exceed the allowance. Each hold is also a row with an expiry: holds of an instance that
// died mid-render are given back when they stand in the way of a reservation.

import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { monthOf, nextMonthStart, QuotaExceededError, type MeteredPlan, type Reservation, type UsageLedger, type UsageSnapshot } from '../../accounts/usage.ts';
import { inTransaction, type Queryable } from './transaction.ts';

/** Longer than any render can hold a document (60 s budget, queue wait, storing). */
const HOLD_SECONDS = 600;

const RESERVE = `
WITH counter AS (
  INSERT INTO usage_months AS u (key_id, month, used, held) VALUES ($1, $2, 0, 1)
  ON CONFLICT (key_id, month) DO UPDATE SET held = u.held + 1 WHERE u.used + u.held < $3
  RETURNING u.used, u.held
), hold AS (
  INSERT INTO usage_holds (id, key_id, month, expires_at)
  SELECT $4, $1, $2, now() + make_interval(secs => $5) FROM counter
)
SELECT used, held FROM counter`;

// Two instances reaping at once: the second waits on the deleted rows and then skips them.
const REAP = `
WITH gone AS (DELETE FROM usage_holds WHERE key_id = $1 AND month = $2 AND expires_at < now() RETURNING id)
UPDATE usage_months SET held = held - (SELECT count(*) FROM gone)
WHERE key_id = $1 AND month = $2 AND (SELECT count(*) FROM gone) > 0
RETURNING held`;

const RELEASE = `
WITH gone AS (DELETE FROM usage_holds WHERE id = $1 RETURNING key_id, month)
UPDATE usage_months u SET held = u.held - 1 FROM gone WHERE u.key_id = gone.key_id AND u.month = gone.month`;

// A hold reaped meanwhile (an instance presumed dead that was only slow) still counts the document.
const COMMIT = `
WITH gone AS (DELETE FROM usage_holds WHERE id = $1 RETURNING id)
UPDATE usage_months SET used = used + 1, held = held - (SELECT count(*) FROM gone)::int, updated_at = now()
WHERE key_id = $2 AND month = $3
RETURNING used`;

export class PgUsageLedger implements UsageLedger {
  /** What commitWithin needs of a reservation this ledger made. */
  private readonly holds = new WeakMap<Reservation, { holdId: string; accountId: string; month: string; plan: MeteredPlan; settle: () => void }>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async reserve(accountId: string, plan: MeteredPlan): Promise<Reservation> {
    const month = monthOf(this.now());
    const holdId = randomUUID();
    const snapshot = (used: number): UsageSnapshot => ({ month, used, limit: plan.monthlyDocuments, planId: plan.id });
    if (plan.monthlyDocuments <= 0) throw new QuotaExceededError(snapshot(0));
    let rows = (await this.pool.query(RESERVE, [accountId, month, plan.monthlyDocuments, holdId, HOLD_SECONDS])).rows;
    if (rows.length === 0 && (await this.pool.query(REAP, [accountId, month])).rowCount) {
      rows = (await this.pool.query(RESERVE, [accountId, month, plan.monthlyDocuments, holdId, HOLD_SECONDS])).rows;
    }
    if (rows.length === 0) {
      const current = await this.counts(accountId, month);
      throw new QuotaExceededError(snapshot(current.used + current.held));
    }
    let settled = false;
    const settle = () => {
      if (settled) throw new Error('reservation already settled');
      settled = true;
    };
    const reservation: Reservation = {
      month,
      commit: async (chargeTag?: string) => {
        settle();
        try {
          const used = await inTransaction(this.pool, async (client) => {
            const result = await client.query<{ used: number }>(COMMIT, [holdId, accountId, month]);
            if (chargeTag !== undefined)
              await client.query('INSERT INTO usage_charges (key_id, month, tag) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [accountId, month, chargeTag]);
            return result.rows[0]!.used;
          });
          return snapshot(used);
        } catch (error) {
          // Not counted, so not charged: the hold goes back (or expires, if the database is gone).
          await this.pool.query(RELEASE, [holdId]).catch(() => undefined);
          throw error;
        }
      },
      release: async () => {
        if (settled) return;
        settled = true;
        await this.pool.query(RELEASE, [holdId]);
      },
    };
    this.holds.set(reservation, { holdId, accountId, month, plan, settle });
    return reservation;
  }

  /**
   * Counts a reservation of this ledger inside the caller's transaction (a render's unit of work,
   * stores/pg/render-commit.ts). Call settled() once that transaction committed; if it rolled
   * back, nothing was counted and release() gives the document back.
   */
  async commitWithin(client: Queryable, reservation: Reservation, chargeTag?: string): Promise<UsageSnapshot> {
    const hold = this.holds.get(reservation);
    if (!hold) throw new Error('not a reservation of this ledger, or already settled');
    const used = (await client.query<{ used: number }>(COMMIT, [hold.holdId, hold.accountId, hold.month])).rows[0]!.used;
    if (chargeTag !== undefined)
      await client.query('INSERT INTO usage_charges (key_id, month, tag) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [hold.accountId, hold.month, chargeTag]);
    return { month: hold.month, used, limit: hold.plan.monthlyDocuments, planId: hold.plan.id };
  }

  /** The transaction of commitWithin committed: the reservation is spent. */
  settled(reservation: Reservation): void {
    this.holds.get(reservation)?.settle();
    this.holds.delete(reservation);
  }

  async usage(accountId: string, plan: MeteredPlan): Promise<UsageSnapshot> {
    const month = monthOf(this.now());
    return { month, used: (await this.counts(accountId, month)).used, limit: plan.monthlyDocuments, planId: plan.id };
  }

  async wasCharged(accountId: string, chargeTag: string, sinceMonth: string): Promise<boolean> {
    const upTo = nextMonthStart(monthOf(this.now())).slice(0, 7);
    const { rowCount } = await this.pool.query('SELECT 1 FROM usage_charges WHERE key_id = $1 AND tag = $2 AND month >= $3 AND month < $4', [
      accountId,
      chargeTag,
      sinceMonth,
      upTo,
    ]);
    return (rowCount ?? 0) > 0;
  }

  async settleCharges(accountId: string, tags: readonly string[], prefix?: string): Promise<void> {
    if (tags.length > 0) await this.pool.query('DELETE FROM usage_charges WHERE key_id = $1 AND tag = ANY($2)', [accountId, [...tags]]);
    if (prefix !== undefined) await this.pool.query('DELETE FROM usage_charges WHERE key_id = $1 AND starts_with(tag, $2)', [accountId, prefix]);
  }

  private async counts(accountId: string, month: string, db: Queryable = this.pool): Promise<{ used: number; held: number }> {
    const { rows } = await db.query<{ used: number; held: number }>('SELECT used, held FROM usage_months WHERE key_id = $1 AND month = $2', [accountId, month]);
    return rows[0] ?? { used: 0, held: 0 };
  }
}
