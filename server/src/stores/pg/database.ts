// The PostgreSQL connection pool every PostgreSQL store shares. Opening runs the schema
// migrations (migrate.ts); transaction.ts makes one unit of work of several writes.

import pg from 'pg';
import { migrate } from './migrate.ts';
import { inTransaction } from './transaction.ts';

export interface Database {
  readonly pool: pg.Pool;
  /** The connection URL (for connections outside the pool: LISTEN). */
  readonly url: string;
  /** Runs work in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<R>(work: (client: pg.PoolClient) => Promise<R>): Promise<R>;
  close(): Promise<void>;
}

/** Connects to DATABASE_URL and brings the schema up to date. */
export async function openDatabase(url: string, options: { maxConnections?: number } = {}): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10 });
  // An idle client's error (the server restarted) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    pool,
    url,
    transaction: (work) => inTransaction(pool, work),
    close: () => pool.end(),
  };
}

/** PostgreSQL's disk_full (SQLSTATE 53100): answered as 507 insufficient_storage, as a full DATA_DIR is. */
export function isDatabaseFull(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === '53100';
}
