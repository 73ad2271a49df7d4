// Template assets in PostgreSQL (the TemplateAssetsStore of stores/template-assets.ts): one row
// per asset with its bytes. A put holds a transaction-scoped advisory lock on its template, so
// two uploads on different instances cannot both pass the size cap that `admit` checks.

import type pg from 'pg';
import type { AssetMeta, StoredAsset, TemplateAssetsStore } from '../template-assets.ts';
import { inTransaction, type Queryable } from './transaction.ts';

interface AssetRow {
  name: string;
  content_type: string;
  size: number;
  updated_at: Date;
}

export class PgTemplateAssetsStore implements TemplateAssetsStore {
  constructor(private readonly pool: pg.Pool) {}

  list(templateId: string): Promise<AssetMeta[]> {
    return listOf(this.pool, templateId);
  }

  async read(templateId: string, name: string): Promise<StoredAsset | undefined> {
    const { rows } = await this.pool.query<AssetRow & { bytes: Buffer }>(
      'SELECT name, content_type, size, updated_at, bytes FROM template_assets WHERE template_id = $1 AND name = $2',
      [templateId, name],
    );
    const row = rows[0];
    return row && { meta: metaOf(row), bytes: new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength) };
  }

  put(templateId: string, asset: StoredAsset, admit?: (others: AssetMeta[]) => void): Promise<void> {
    return inTransaction(this.pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtext('template_assets:' || $1))", [templateId]);
      admit?.((await listOf(client, templateId)).filter((entry) => entry.name !== asset.meta.name));
      const { meta } = asset;
      await client.query(
        `INSERT INTO template_assets (template_id, name, content_type, size, updated_at, bytes) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (template_id, name) DO UPDATE SET content_type = EXCLUDED.content_type, size = EXCLUDED.size, updated_at = EXCLUDED.updated_at, bytes = EXCLUDED.bytes`,
        [templateId, meta.name, meta.contentType, meta.size, meta.updatedAt, Buffer.from(asset.bytes.buffer, asset.bytes.byteOffset, asset.bytes.byteLength)],
      );
    });
  }

  async remove(templateId: string, name: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM template_assets WHERE template_id = $1 AND name = $2', [templateId, name]);
    return (rowCount ?? 0) > 0;
  }

  async removeAll(templateId: string): Promise<void> {
    await this.pool.query('DELETE FROM template_assets WHERE template_id = $1', [templateId]);
  }
}

/** A template's assets in the files store's order (localeCompare of names). */
async function listOf(db: Queryable, templateId: string): Promise<AssetMeta[]> {
  const { rows } = await db.query<AssetRow>('SELECT name, content_type, size, updated_at FROM template_assets WHERE template_id = $1', [templateId]);
  return rows.map(metaOf).sort((a, b) => a.name.localeCompare(b.name));
}

function metaOf(row: AssetRow): AssetMeta {
  return { name: row.name, contentType: row.content_type, size: row.size, updatedAt: row.updated_at.toISOString() };
}
