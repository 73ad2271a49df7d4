// Batches in PostgreSQL (the BatchStore of stores/batch-store.ts), shared by every instance. The
// batches table is the background queue: an instance works on the batches it holds a lease on
// (those it created, and those it adopted); heartbeat() renews its leases every few seconds. When
// an instance dies (SIGKILL, power cut), its leases run out and another instance adopts those
// batches with one UPDATE over rows picked FOR UPDATE SKIP LOCKED, so no two adopt the same one;
// services/batches/items.ts then settles the items it left "rendering". Every write of a batch is
// fenced by the lease: an instance presumed dead that was only slow gets LeaseLostError and
// stops, and its render, if it finishes, cannot store or charge twice (the document id is the
// row's key, and document and charge are one transaction: stores/pg/render-commit.ts).

import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { inTransaction, type Queryable } from './transaction.ts';
import { LeaseLostError, type StoredItemRequest, type BatchRecord, type BatchStore } from '../batch-store.ts';
import { checkBacklog, type BacklogLimits } from '../batch-backlog.ts';
import { CoalescingWriter } from '../coalescing-writer.ts';
import type { Page } from '../newest-first-index.ts';
import { pageNewestFirst } from './newest-first.ts';

/** A lease not renewed for this long marks its holder as dead (BATCH_LEASE_SECONDS); the heartbeat renews it 3x as often. */
export const LEASE_SECONDS = 15;
/** Batches adopted per tick at most, so one instance does not take every orphan at once. */
const ADOPT_LIMIT = 20;

// Oldest first, but at most a few per key before the next key's: one key's backlog of orphans
// does not keep another key's waiting behind it (fairness between keys, as the worker's round-robin).
const ADOPT = `
WITH free AS (
  SELECT id FROM batches
  WHERE (status <> 'completed' OR webhook_pending) AND (lease_owner IS NULL OR lease_expires_at < now())
  ORDER BY created_at, id
  LIMIT $2 * 4
  FOR UPDATE SKIP LOCKED
), ranked AS (
  SELECT b.id, row_number() OVER (PARTITION BY b.key_id ORDER BY b.created_at, b.id) AS turn, b.created_at
  FROM batches b JOIN free ON free.id = b.id
), picked AS (
  SELECT id FROM ranked ORDER BY turn, created_at, id LIMIT $2
)
UPDATE batches b SET lease_owner = $1, lease_expires_at = now() + make_interval(secs => $3)
FROM picked WHERE b.id = picked.id
RETURNING b.record`;

/** The advisory lock key under which background batches are admitted ("quireb" in ASCII). */
const BACKLOG_LOCK = 0x717569726562;

// What waits in the background: the key's and everyone's unfinished background batches.
const WAITING = `
SELECT coalesce(sum(item_count) FILTER (WHERE key_id = $1), 0)::float8 AS key_items,
       coalesce(sum(request_bytes) FILTER (WHERE key_id = $1), 0)::float8 AS key_bytes,
       coalesce(sum(item_count), 0)::float8 AS items, coalesce(sum(request_bytes), 0)::float8 AS bytes
FROM batches WHERE mode = 'async' AND status <> 'completed'`;

export class PgBatchStore implements BatchStore {
  /** This process's lease identity: a new one per start, so a restarted instance adopts its own old batches like any other's. */
  readonly owner = `${process.pid}-${randomUUID()}`;
  private readonly live = new Map<string, BatchRecord>();
  private readonly writers = new Map<string, CoalescingWriter>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly leaseSeconds = LEASE_SECONDS,
  ) {}

  /**
   * A background batch (backlog given) is admitted and inserted in one transaction under an
   * advisory lock: instances admitting at once take turns, each counting the others' commits.
   */
  async create(record: BatchRecord, requests: readonly StoredItemRequest[], backlog?: BacklogLimits): Promise<void> {
    const text = JSON.stringify(requests);
    const bytes = Buffer.byteLength(text);
    const insert = (client: Queryable) =>
      client.query(
        `INSERT INTO batches (id, key_id, created_at, expires_at, status, webhook_pending, record, requests, lease_owner, lease_expires_at, mode, item_count, request_bytes)
         VALUES ($1, $2, $3, $4, $5, false, $6, $7, $8, now() + make_interval(secs => $9), $10, $11, $12)`,
        [
          record.id,
          record.keyId,
          record.createdAt,
          record.expiresAt,
          record.status,
          JSON.stringify(record),
          text,
          this.owner,
          this.leaseSeconds,
          record.mode,
          record.items.length,
          bytes,
        ],
      );
    if (!backlog) await insert(this.pool);
    else {
      await inTransaction(this.pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [BACKLOG_LOCK]);
        const { rows } = await client.query<{ key_items: number; key_bytes: number; items: number; bytes: number }>(WAITING, [record.keyId]);
        const waiting = rows[0]!;
        checkBacklog(
          { key: { items: waiting.key_items, bytes: waiting.key_bytes }, all: { items: waiting.items, bytes: waiting.bytes } },
          record.items.length,
          bytes,
          backlog,
        );
        await insert(client);
      });
    }
    this.live.set(record.id, record);
  }

  save(record: BatchRecord): Promise<void> {
    let writer = this.writers.get(record.id);
    if (!writer) {
      writer = new CoalescingWriter((text) => this.write(record.id, text));
      this.writers.set(record.id, writer);
    }
    return writer.write(JSON.stringify(record));
  }

  async requests(id: string): Promise<StoredItemRequest[]> {
    const { rows } = await this.pool.query<{ requests: StoredItemRequest[] | null }>('SELECT requests FROM batches WHERE id = $1', [id]);
    if (!rows[0]?.requests) throw new Error(`batch ${id} has no requests on record`);
    return rows[0].requests;
  }

  async dropRequests(id: string): Promise<void> {
    await this.pool.query('UPDATE batches SET requests = NULL WHERE id = $1 AND lease_owner = $2', [id, this.owner]);
  }

  held(id: string): BatchRecord | undefined {
    return this.live.get(id);
  }

  /**
   * The last state written, even for a batch held here: its live record may be ahead of the row
   * by a write in flight, and every instance must answer the same (docs/operations.md#several-instances-postgresql).
   */
  async get(id: string): Promise<BatchRecord | undefined> {
    const { rows } = await this.pool.query<{ record: BatchRecord }>('SELECT record FROM batches WHERE id = $1', [id]);
    return rows[0]?.record;
  }

  page(keyId: string | undefined, limit: number, cursor: string | undefined): Promise<Page<BatchRecord>> {
    const byKey = keyId !== undefined;
    return pageNewestFirst<{ id: string; created_at: Date; record: BatchRecord }, BatchRecord>(
      this.pool,
      { from: 'batches', columns: 'id, created_at, record', where: byKey ? ['key_id = $1'] : [], values: byKey ? [keyId] : [], limit, cursor },
      (row) => row.record,
    );
  }

  async adopt(): Promise<BatchRecord[]> {
    const { rows } = await this.pool.query<{ record: BatchRecord }>(ADOPT, [this.owner, ADOPT_LIMIT, this.leaseSeconds]);
    for (const { record } of rows) this.live.set(record.id, record);
    return rows.map((row) => row.record);
  }

  async release(id: string): Promise<void> {
    await this.writers.get(id)?.idle();
    this.forget(id);
    await this.pool.query('UPDATE batches SET lease_owner = NULL, lease_expires_at = NULL WHERE id = $1 AND lease_owner = $2', [id, this.owner]);
  }

  async heartbeat(): Promise<void> {
    const { rows } = await this.pool.query<{ id: string }>(
      'UPDATE batches SET lease_expires_at = now() + make_interval(secs => $2) WHERE lease_owner = $1 RETURNING id',
      [this.owner, this.leaseSeconds],
    );
    const renewed = new Set(rows.map((row) => row.id));
    for (const id of this.live.keys()) if (!renewed.has(id)) this.forget(id);
  }

  async handBack(): Promise<void> {
    await this.flush();
    this.live.clear();
    this.writers.clear();
    await this.pool.query('UPDATE batches SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = $1', [this.owner]);
  }

  async prune(nowMs: number): Promise<number> {
    // One DELETE: instances pruning together each delete a row at most once between them.
    const { rowCount } = await this.pool.query("DELETE FROM batches WHERE status = 'completed' AND NOT webhook_pending AND expires_at <= $1", [
      new Date(nowMs),
    ]);
    return rowCount ?? 0;
  }

  /**
   * Marks a held batch's item succeeded inside the caller's transaction (a render's unit of work,
   * stores/pg/render-commit.ts); LeaseLostError, rolling it back, once another instance adopted it.
   */
  async markSucceededWithin(client: Queryable, batchId: string, index: number): Promise<void> {
    const { rowCount } = await client.query(
      `UPDATE batches SET record = jsonb_set(jsonb_set(jsonb_set(record,
         ARRAY['items', $3::text, 'status'], '"succeeded"'), ARRAY['items', $3::text, 'error'], 'null'),
         ARRAY['items', $3::text, 'finishedAt'], to_jsonb(to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
       WHERE id = $1 AND lease_owner = $2`,
      [batchId, this.owner, String(index)],
    );
    if (!rowCount) throw new LeaseLostError(batchId);
  }

  async flush(): Promise<void> {
    await Promise.all([...this.writers.values()].map((writer) => writer.idle()));
  }

  /** One state write, fenced by the lease: refused once another instance adopted the batch. */
  private async write(id: string, text: string): Promise<void> {
    const { rowCount } = await this.pool.query(
      `UPDATE batches SET record = $2::jsonb, status = $2::jsonb->>'status', expires_at = ($2::jsonb->>'expiresAt')::timestamptz,
         webhook_pending = coalesce($2::jsonb->'webhook'->>'status' = 'pending', false)
       WHERE id = $1 AND lease_owner = $3`,
      [id, text, this.owner],
    );
    if (!rowCount) {
      this.forget(id);
      throw new LeaseLostError(id);
    }
  }

  private forget(id: string): void {
    this.live.delete(id);
    this.writers.delete(id);
  }
}
