// Signing certificates in PostgreSQL (the CertificateStore of stores/certificates.ts): one row per
// certificate, the record as jsonb (its private key sealed, as in the file).

import type pg from 'pg';
import type { CertificateChanges, CertificateRecord, CertificateStore } from '../certificates.ts';

export class PgCertificateStore implements CertificateStore {
  constructor(private readonly pool: pg.Pool) {}

  async list(): Promise<CertificateRecord[]> {
    const { rows } = await this.pool.query<{ record: CertificateRecord }>('SELECT record FROM certificates ORDER BY created_at, id');
    return rows.map((row) => row.record);
  }

  async get(id: string): Promise<CertificateRecord | undefined> {
    const { rows } = await this.pool.query<{ record: CertificateRecord }>('SELECT record FROM certificates WHERE id = $1', [id]);
    return rows[0]?.record;
  }

  async insert(record: CertificateRecord): Promise<void> {
    await this.pool.query('INSERT INTO certificates (id, owner_key_id, created_at, record) VALUES ($1, $2, $3, $4)', [
      record.id,
      record.ownerKeyId,
      record.createdAt,
      JSON.stringify(record),
    ]);
  }

  async update(id: string, changes: CertificateChanges): Promise<CertificateRecord | undefined> {
    const { rows } = await this.pool.query<{ record: CertificateRecord }>(
      'UPDATE certificates SET record = record || $2::jsonb WHERE id = $1 RETURNING record',
      [id, JSON.stringify(changes)],
    );
    return rows[0]?.record;
  }

  async delete(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM certificates WHERE id = $1', [id]);
    return (rowCount ?? 0) > 0;
  }
}
