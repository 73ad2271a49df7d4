// Stored templates in PostgreSQL (the TemplateStore of stores/templates.ts): one row each, the
// HTML in the row; metadata queries leave the HTML out. Every save takes a new revision number,
// which tells every instance's parsed-template cache whether its copy is current.

import type pg from 'pg';
import type { Page } from '../newest-first-index.ts';
import type { TemplateChanges, TemplateFormat, TemplateMeta, TemplateRecord, TemplateStore } from '../templates.ts';
import { pageNewestFirst } from './newest-first.ts';

interface MetaRow {
  id: string;
  key_id: string;
  name: string;
  format: TemplateFormat;
  created_at: Date;
  updated_at: Date;
  revision: string;
}

interface RecordRow extends MetaRow {
  html: string;
  sample_data: Record<string, unknown> | null;
}

const META_COLUMNS = 'id, key_id, name, format, created_at, updated_at, revision';

export class PgTemplateStore implements TemplateStore {
  constructor(private readonly pool: pg.Pool) {}

  async meta(id: string): Promise<TemplateMeta | undefined> {
    const { rows } = await this.pool.query<MetaRow>(`SELECT ${META_COLUMNS} FROM templates WHERE id = $1`, [id]);
    return rows[0] && metaOf(rows[0]);
  }

  async read(id: string): Promise<TemplateRecord | undefined> {
    const { rows } = await this.pool.query<RecordRow>(`SELECT ${META_COLUMNS}, html, sample_data FROM templates WHERE id = $1`, [id]);
    return rows[0] && recordOf(rows[0]);
  }

  page(keyId: string | undefined, limit: number, cursor: string | undefined): Promise<Page<TemplateMeta>> {
    const byKey = keyId !== undefined;
    return pageNewestFirst<MetaRow, TemplateMeta>(
      this.pool,
      { from: 'templates', columns: META_COLUMNS, where: byKey ? ['key_id = $1'] : [], values: byKey ? [keyId] : [], limit, cursor },
      metaOf,
    );
  }

  async insert(record: TemplateRecord): Promise<void> {
    await this.pool.query(
      'INSERT INTO templates (id, key_id, name, html, format, sample_data, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [
        record.id,
        record.keyId,
        record.name,
        record.html,
        record.format,
        record.sampleData === null ? null : JSON.stringify(record.sampleData),
        record.createdAt,
        record.updatedAt,
      ],
    );
  }

  async replace(id: string, changes: TemplateChanges): Promise<TemplateRecord | undefined> {
    const { rows } = await this.pool.query<RecordRow>(
      `UPDATE templates SET name = $2, html = $3, format = $4, sample_data = $5, updated_at = $6, revision = nextval('template_revisions') WHERE id = $1
       RETURNING ${META_COLUMNS}, html, sample_data`,
      [id, changes.name, changes.html, changes.format, changes.sampleData === null ? null : JSON.stringify(changes.sampleData), changes.updatedAt],
    );
    return rows[0] && recordOf(rows[0]);
  }

  async remove(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM templates WHERE id = $1', [id]);
    return (rowCount ?? 0) > 0;
  }
}

// metaOf and recordOf are two projections of a row (no text but a revision; the text and sample data), not one.
function metaOf(row: MetaRow): TemplateMeta {
  return {
    id: row.id,
    keyId: row.key_id,
    name: row.name,
    format: row.format,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    createdMs: row.created_at.getTime(),
    revision: String(row.revision),
  };
}

function recordOf(row: RecordRow): TemplateRecord {
  return {
    id: row.id,
    keyId: row.key_id,
    name: row.name,
    html: row.html,
    format: row.format,
    sampleData: row.sample_data,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
