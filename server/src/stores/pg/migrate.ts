// Schema migrations for the PostgreSQL stores: the numbered .sql files beside this module
// (NNN_name.sql), applied in order at start-up, each once, recorded in schema_migrations. All
// of it runs in one transaction under an advisory lock, so instances starting together apply a
// migration exactly once and none serves before the schema is complete.

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { fromPackageRoot } from '../../package-root.ts';
import { inTransaction } from './transaction.ts';

// From the package root, so the compiled server (dist/server) reads the same files as the source.
const MIGRATIONS_DIR = fromPackageRoot('server', 'src', 'stores', 'pg', 'migrations');
/** The advisory lock key (any constant shared by every instance; "quire" in ASCII). */
const MIGRATION_LOCK = 0x7175697265;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The migrations shipped with this version, oldest first. */
export async function shippedMigrations(): Promise<Migration[]> {
  const migrations: Migration[] = [];
  for (const file of (await readdir(MIGRATIONS_DIR)).sort()) {
    const match = /^(\d{3})_([a-z0-9_]+)\.sql$/.exec(file);
    if (!match) continue;
    migrations.push({ version: Number(match[1]), name: match[2]!, sql: await readFile(path.join(MIGRATIONS_DIR, file), 'utf8') });
  }
  return migrations;
}

/** Applies the migrations not yet applied; returns the versions this call applied. */
export async function migrate(pool: pg.Pool, migrations?: readonly Migration[]): Promise<number[]> {
  const wanted = migrations ?? (await shippedMigrations());
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const newest = Math.max(0, ...applied);
    const known = Math.max(0, ...wanted.map((migration) => migration.version));
    // An older build must not run against a schema it does not know.
    if (newest > known) throw new Error(`the database schema is at version ${newest}, newer than this server knows (${known}): run the newer server`);
    const done: number[] = [];
    for (const migration of wanted) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      done.push(migration.version);
    }
    return done;
  });
}
