// API keys in PostgreSQL (the KeyStore of stores/keys.ts): one row per key, looked up by the
// hash of the presented key. Every instance reads the same rows, so a key created, rotated or
// revoked through one instance counts on all of them from their next request.

import type pg from 'pg';
import type { KeyChanges, KeyRecord, KeyStore, ReceiptMode } from '../keys.ts';
import type { Page } from '../newest-first-index.ts';
import { pageNewestFirst } from './newest-first.ts';

interface KeyRow {
  id: string;
  name: string;
  plan_id: string;
  auto_store: boolean;
  receipts: ReceiptMode;
  key_hash: string | null;
  created_at: Date;
  updated_at: Date;
  revoked_at: Date | null;
}

const COLUMNS: Record<keyof KeyChanges, string> = {
  name: 'name',
  planId: 'plan_id',
  autoStore: 'auto_store',
  receipts: 'receipts',
  keyHash: 'key_hash',
  revokedAt: 'revoked_at',
  updatedAt: 'updated_at',
};

export class PgKeyStore implements KeyStore {
  constructor(private readonly pool: pg.Pool) {}

  async findByHash(keyHash: string): Promise<KeyRecord | undefined> {
    const { rows } = await this.pool.query<KeyRow>('SELECT * FROM api_keys WHERE key_hash = $1', [keyHash]);
    return rows[0] && recordOf(rows[0]);
  }

  async get(id: string): Promise<KeyRecord | undefined> {
    const { rows } = await this.pool.query<KeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
    return rows[0] && recordOf(rows[0]);
  }

  async list(): Promise<KeyRecord[]> {
    const { rows } = await this.pool.query<KeyRow>('SELECT * FROM api_keys WHERE key_hash IS NOT NULL ORDER BY created_at, id');
    return rows.map(recordOf);
  }

  async page(limit: number, cursor: string | undefined): Promise<Page<KeyRecord>> {
    return pageNewestFirst<KeyRow, KeyRecord>(
      this.pool,
      { from: 'api_keys', columns: '*', where: ['key_hash IS NOT NULL'], values: [], limit, cursor },
      recordOf,
    );
  }

  async insert(...records: KeyRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.pool.query(
      `INSERT INTO api_keys (id, name, plan_id, auto_store, key_hash, created_at, updated_at, revoked_at, receipts)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[], $9::text[])`,
      [
        records.map((record) => record.id),
        records.map((record) => record.name),
        records.map((record) => record.planId),
        records.map((record) => record.autoStore),
        records.map((record) => record.keyHash),
        records.map((record) => record.createdAt),
        records.map((record) => record.updatedAt),
        records.map((record) => record.revokedAt),
        records.map((record) => record.receipts ?? 'stored'),
      ],
    );
  }

  async update(id: string, changes: KeyChanges): Promise<KeyRecord | undefined> {
    const entries = (Object.entries(changes) as [keyof KeyChanges, unknown][]).filter(([, value]) => value !== undefined);
    if (entries.length === 0) {
      const record = await this.get(id);
      return record?.keyHash === null ? undefined : record;
    }
    const assignments = entries.map(([field], at) => `${COLUMNS[field]} = $${at + 2}`).join(', ');
    const { rows } = await this.pool.query<KeyRow>(`UPDATE api_keys SET ${assignments} WHERE id = $1 AND key_hash IS NOT NULL RETURNING *`, [
      id,
      ...entries.map(([, value]) => value),
    ]);
    return rows[0] && recordOf(rows[0]);
  }
}

// Shaped like every store's row mapper: each maps its own table's columns to its own record.
function recordOf(row: KeyRow): KeyRecord {
  return {
    id: row.id,
    name: row.name,
    planId: row.plan_id,
    autoStore: row.auto_store,
    receipts: row.receipts,
    keyHash: row.key_hash,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}
