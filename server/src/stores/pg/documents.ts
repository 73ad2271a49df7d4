// Stored documents in PostgreSQL (the DocumentStore of stores/documents.ts): one row per
// document, the bytes through a PdfBlobStore (PostgreSQL chunks by default). The row and the
// bytes are written, expired and deleted in one transaction, so no instance ever lists a
// document whose bytes are missing. Expiry is one conditional UPDATE: when instances sweep at
// once, each document is expired by exactly one of them.

import type pg from 'pg';
import type { Page } from '../newest-first-index.ts';
import type { DocumentStore } from '../document-store.ts';
import { documentSourceOf, type DocumentRecord, type StoredDocument } from '../document-record.ts';
import type { PdfBlobStore, PdfReader } from '../pdf-blobs.ts';
import { inTransaction, type Queryable } from './transaction.ts';
import { pageNewestFirst } from './newest-first.ts';

interface DocumentRow {
  id: string;
  key_id: string;
  filename: string | null;
  size: number;
  pages: number | null;
  created_at: Date;
  expires_at: Date;
  source: string;
  batch_id: string | null;
  plan_id: string;
  retention: string;
  state: DocumentRecord['state'];
  expired_at: Date | null;
}

const COLUMNS = 'id, key_id, filename, size, created_at, expires_at, source, batch_id, plan_id, retention, state, expired_at, pages';

export class PgDocumentStore implements DocumentStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly blobs: PdfBlobStore<Queryable>,
  ) {}

  async put(record: DocumentRecord, pdf: Uint8Array): Promise<StoredDocument> {
    await inTransaction(this.pool, (client) => this.insert(client, record, pdf));
    return withTimes(record);
  }

  /** Writes a document inside the caller's transaction (a render's unit of work). */
  async insert(client: Queryable, record: DocumentRecord, pdf: Uint8Array): Promise<void> {
    await this.blobs.put(record.id, pdf, client);
    await this.insertRow(client, record);
  }

  /** Writes the tombstone of an expired document (no bytes): the import of an embedded store. */
  insertTombstone(client: Queryable, record: DocumentRecord): Promise<void> {
    return this.insertRow(client, { ...record, state: 'expired' });
  }

  private async insertRow(client: Queryable, record: DocumentRecord): Promise<void> {
    await client.query(`INSERT INTO documents (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`, [
      record.id,
      record.keyId,
      record.filename,
      record.size,
      record.createdAt,
      record.expiresAt,
      record.source,
      record.batchId,
      record.planId,
      record.retention,
      record.state,
      record.expiredAt,
      record.pages ?? null,
    ]);
  }

  get(id: string): Promise<StoredDocument | undefined> {
    return this.one(id, 'stored');
  }

  tombstone(id: string): Promise<StoredDocument | undefined> {
    return this.one(id, 'expired');
  }

  page(keyId: string | undefined, limit: number, cursor: string | undefined, liveAtMs: number): Promise<Page<StoredDocument>> {
    const where = ["state = 'stored'", 'expires_at > $1'];
    const values: unknown[] = [new Date(liveAtMs)];
    if (keyId !== undefined) {
      values.push(keyId);
      where.push('key_id = $2');
    }
    return pageNewestFirst<DocumentRow, StoredDocument>(this.pool, { from: 'documents', columns: COLUMNS, where, values, limit, cursor }, documentOf);
  }

  openPdf(document: StoredDocument): Promise<PdfReader | undefined> {
    // The bytes go with the row (same transactions): bytes there means the document is stored.
    return this.blobs.open(document.id);
  }

  remove(id: string): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const { rowCount } = await client.query("DELETE FROM documents WHERE id = $1 AND state = 'stored'", [id]);
      if (!rowCount) return false;
      await this.blobs.remove(id, client);
      return true;
    });
  }

  expire(id: string, at: Date): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const { rowCount } = await client.query("UPDATE documents SET state = 'expired', expired_at = $2 WHERE id = $1 AND state = 'stored'", [id, at]);
      if (!rowCount) return false;
      await this.blobs.remove(id, client);
      return true;
    });
  }

  async dropTombstone(id: string): Promise<void> {
    await this.pool.query("DELETE FROM documents WHERE id = $1 AND state = 'expired'", [id]);
  }

  async due(ms: number, tombstoneMs: number): Promise<{ expired: StoredDocument[]; tombstones: StoredDocument[] }> {
    const expired = await this.pool.query<DocumentRow>(`SELECT ${COLUMNS} FROM documents WHERE state = 'stored' AND expires_at <= $1`, [new Date(ms)]);
    const tombstones = await this.pool.query<DocumentRow>(`SELECT ${COLUMNS} FROM documents WHERE state = 'expired' AND expires_at <= $1`, [
      new Date(tombstoneMs),
    ]);
    return { expired: expired.rows.map(documentOf), tombstones: tombstones.rows.map(documentOf) };
  }

  private async one(id: string, state: DocumentRecord['state']): Promise<StoredDocument | undefined> {
    const { rows } = await this.pool.query<DocumentRow>(`SELECT ${COLUMNS} FROM documents WHERE id = $1 AND state = $2`, [id, state]);
    return rows[0] && documentOf(rows[0]);
  }
}

function documentOf(row: DocumentRow): StoredDocument {
  return withTimes({
    id: row.id,
    keyId: row.key_id,
    filename: row.filename,
    size: row.size,
    // Absent rather than null, as the file store keeps it: a record reads back as it was put.
    ...(row.pages === null ? {} : { pages: row.pages }),
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    source: documentSourceOf(row.source),
    batchId: row.batch_id,
    planId: row.plan_id,
    retention: row.retention,
    state: row.state,
    expiredAt: row.expired_at?.toISOString() ?? null,
  });
}

function withTimes(record: DocumentRecord): StoredDocument {
  return { ...record, createdMs: Date.parse(record.createdAt), expiresMs: Date.parse(record.expiresAt) };
}
