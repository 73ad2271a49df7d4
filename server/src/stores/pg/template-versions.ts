// Template versions in PostgreSQL (the TemplateVersionsStore of stores/template-versions.ts):
// one row per version, its reference PDF in the row. Appending takes a transaction-scoped
// advisory lock on the template, so saves on different instances number their versions 1, 2, 3
// without gaps or clashes. Cursors have the files store's form.

import type pg from 'pg';
import type { Page } from '../newest-first-index.ts';
import {
  decodeVersionCursor,
  encodeVersionCursor,
  REFERENCE_LEASE_SECONDS,
  type TemplateVersion,
  type TemplateVersionsStore,
  type VersionMeta,
} from '../template-versions.ts';
import type { TemplateFormat } from '../templates.ts';
import { inTransaction } from './transaction.ts';

interface VersionRow {
  template_id: string;
  number: number;
  name: string;
  format: TemplateFormat;
  created_at: Date;
  created_by: string;
  html?: string;
  sample_data?: Record<string, unknown> | null;
}

const META = 'template_id, number, name, format, created_at, created_by';

export class PgTemplateVersionsStore implements TemplateVersionsStore {
  constructor(private readonly pool: pg.Pool) {}

  append(input: Omit<TemplateVersion, 'number'>): Promise<TemplateVersion> {
    return inTransaction(this.pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtext('template_versions:' || $1))", [input.templateId]);
      const { rows } = await client.query<{ number: number }>(
        `INSERT INTO template_versions (template_id, number, name, html, format, sample_data, created_at, created_by, reference_due_by)
         SELECT $1, coalesce(max(number), 0) + 1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8) FROM template_versions WHERE template_id = $1
         RETURNING number`,
        [
          input.templateId,
          input.name,
          input.html,
          input.format,
          input.sampleData === null ? null : JSON.stringify(input.sampleData),
          input.createdAt,
          input.createdBy,
          REFERENCE_LEASE_SECONDS,
        ],
      );
      return { ...input, number: rows[0]!.number };
    });
  }

  async page(templateId: string, limit: number, cursor: string | undefined): Promise<Page<VersionMeta>> {
    const before = cursor === undefined ? 2 ** 31 - 1 : decodeVersionCursor(cursor);
    const { rows } = await this.pool.query<VersionRow>(
      `SELECT ${META} FROM template_versions WHERE template_id = $1 AND number < $2 ORDER BY number DESC LIMIT $3`,
      [templateId, before, limit + 1],
    );
    const items = rows.slice(0, limit).map(metaOf);
    return { items, nextCursor: rows.length > limit ? encodeVersionCursor(items.at(-1)!.number) : null };
  }

  async read(templateId: string, number: number): Promise<TemplateVersion | undefined> {
    const { rows } = await this.pool.query<VersionRow>(`SELECT ${META}, html, sample_data FROM template_versions WHERE template_id = $1 AND number = $2`, [
      templateId,
      number,
    ]);
    const row = rows[0];
    return row && { ...metaOf(row), html: row.html!, sampleData: row.sample_data ?? null };
  }

  async latest(templateId: string): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ latest: number | null }>('SELECT max(number) AS latest FROM template_versions WHERE template_id = $1', [
      templateId,
    ]);
    return rows[0]?.latest ?? undefined;
  }

  async saveReference(templateId: string, number: number, pdf: Uint8Array): Promise<void> {
    // A version deleted meanwhile (its template was) matches no row: nothing is left behind.
    await this.pool.query('UPDATE template_versions SET reference = $3, reference_due_by = NULL WHERE template_id = $1 AND number = $2', [
      templateId,
      number,
      Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength),
    ]);
  }

  async readReference(templateId: string, number: number): Promise<Uint8Array | undefined> {
    const { rows } = await this.pool.query<{ reference: Buffer | null }>('SELECT reference FROM template_versions WHERE template_id = $1 AND number = $2', [
      templateId,
      number,
    ]);
    const bytes = rows[0]?.reference;
    return bytes ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : undefined;
  }

  async isReferenceComing(templateId: string, number: number): Promise<boolean> {
    // The database's clock on both sides of the mark, so instances' clocks need not agree.
    const { rows } = await this.pool.query<{ coming: boolean }>(
      'SELECT reference IS NULL AND reference_due_by > now() AS coming FROM template_versions WHERE template_id = $1 AND number = $2',
      [templateId, number],
    );
    return rows[0]?.coming === true;
  }

  async renewReference(templateId: string, number: number): Promise<void> {
    // Stored (by an instance that took it over) or abandoned meanwhile: nothing is on its way any
    // more, also when this renewal was sent before the abandon and arrives after it.
    await this.pool.query(
      `UPDATE template_versions SET reference_due_by = now() + make_interval(secs => $3)
       WHERE template_id = $1 AND number = $2 AND reference IS NULL AND reference_due_by IS NOT NULL`,
      [templateId, number, REFERENCE_LEASE_SECONDS],
    );
  }

  async abandonReference(templateId: string, number: number): Promise<void> {
    await this.pool.query('UPDATE template_versions SET reference_due_by = NULL WHERE template_id = $1 AND number = $2', [templateId, number]);
  }

  async removeAll(templateId: string): Promise<void> {
    await this.pool.query('DELETE FROM template_versions WHERE template_id = $1', [templateId]);
  }
}

// Shaped like every store's row mapper: each maps its own table's columns to its own record.
function metaOf(row: VersionRow): VersionMeta {
  return {
    templateId: row.template_id,
    number: row.number,
    name: row.name,
    format: row.format,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
  };
}
