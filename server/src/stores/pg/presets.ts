// Transform presets in PostgreSQL (the PresetStore of stores/presets.ts): one row per preset with
// its steps as JSON, so a preset saved through one instance is applied by any other.

import type pg from 'pg';
import type { PresetRecord, PresetStore } from '../presets.ts';

interface PresetRow {
  id: string;
  key_id: string;
  name: string;
  steps: unknown[];
  created_at: Date;
  updated_at: Date;
}

function recordOf(row: PresetRow): PresetRecord {
  return { id: row.id, keyId: row.key_id, name: row.name, steps: row.steps, createdAt: row.created_at.toISOString(), updatedAt: row.updated_at.toISOString() };
}

export class PgPresetStore implements PresetStore {
  constructor(private readonly pool: pg.Pool) {}

  async put(record: PresetRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO pdf_presets (id, key_id, name, steps, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, steps = EXCLUDED.steps, updated_at = EXCLUDED.updated_at`,
      [record.id, record.keyId, record.name, JSON.stringify(record.steps), record.createdAt, record.updatedAt],
    );
  }

  async get(keyId: string, id: string): Promise<PresetRecord | undefined> {
    const { rows } = await this.pool.query<PresetRow>('SELECT * FROM pdf_presets WHERE id = $1 AND key_id = $2', [id, keyId]);
    return rows[0] && recordOf(rows[0]);
  }

  async list(keyId: string): Promise<PresetRecord[]> {
    const { rows } = await this.pool.query<PresetRow>('SELECT * FROM pdf_presets WHERE key_id = $1 ORDER BY created_at, id', [keyId]);
    return rows.map(recordOf);
  }

  async remove(keyId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM pdf_presets WHERE id = $1 AND key_id = $2', [id, keyId]);
    return (rowCount ?? 0) > 0;
  }
}
