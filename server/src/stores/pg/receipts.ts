// Render receipts in PostgreSQL (the ReceiptStore of stores/receipts.ts): one row per receipt with
// its JSON, so a receipt made on one instance is read through any other.

import type pg from 'pg';
import type { ReceiptRecord, ReceiptStore } from '../receipts.ts';

interface ReceiptRow {
  id: string;
  key_id: string | null;
  created_at: Date;
  expires_at: Date;
  body: Record<string, unknown>;
}

export class PgReceiptStore implements ReceiptStore {
  constructor(private readonly pool: pg.Pool) {}

  async put(record: ReceiptRecord): Promise<void> {
    await this.pool.query('INSERT INTO receipts (id, key_id, created_at, expires_at, body) VALUES ($1, $2, $3, $4, $5)', [
      record.id,
      record.keyId,
      record.createdAt,
      record.expiresAt,
      JSON.stringify(record.body),
    ]);
  }

  async get(id: string, now: Date): Promise<ReceiptRecord | undefined> {
    const { rows } = await this.pool.query<ReceiptRow>('SELECT * FROM receipts WHERE id = $1 AND expires_at > $2', [id, now]);
    const row = rows[0];
    return row && { id: row.id, keyId: row.key_id, createdAt: row.created_at.toISOString(), expiresAt: row.expires_at.toISOString(), body: row.body };
  }

  async prune(now: Date): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM receipts WHERE expires_at <= $1', [now]);
    return rowCount ?? 0;
  }
}
