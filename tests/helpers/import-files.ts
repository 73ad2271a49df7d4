// Shared by the tests/stores/import-files-*.test.ts files: the import CLI, a document record of
// the embedded store, and a digest of every table the import writes.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { DocumentRecord } from '../../server/src/stores/document-record.ts';
import type { Database } from '../../server/src/stores/pg/database.ts';
import { REPO_ROOT } from './server-process.ts';

export const run = promisify(execFile);
export const NOW = new Date('2026-03-10T12:00:00.000Z');

export function importCli(dataDir: string, databaseUrl: string) {
  return run('npm', ['run', '-s', 'cli', '--', 'import', '--from', dataDir], { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: databaseUrl } });
}

export function documentRecord(id: string, keyId: string, state: DocumentRecord['state'] = 'stored'): DocumentRecord {
  return {
    id,
    keyId,
    filename: `${id}.pdf`,
    size: 0,
    createdAt: NOW.toISOString(),
    expiresAt: '2026-04-10T12:00:00.000Z',
    source: 'render',
    batchId: null,
    planId: 'starter',
    retention: '30d',
    state,
    expiredAt: null,
  };
}

export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
export const LOAD = { wait_until: 'load' };

/** Every row of the tables the import writes, as one digest per table (leases included: a changed row shows). */
export async function snapshot(db: Database): Promise<Record<string, string>> {
  const tables = ['api_keys', 'usage_months', 'usage_charges', 'templates', 'template_versions', 'template_assets', 'documents', 'document_blobs', 'batches'];
  const rows = await Promise.all(
    tables.map(
      async (table) =>
        (await db.pool.query(`SELECT coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS digest, count(*)::int AS n FROM ${table} t`)).rows[0],
    ),
  );
  return Object.fromEntries(tables.map((table, at) => [table, `${rows[at].n} ${rows[at].digest}`]));
}
