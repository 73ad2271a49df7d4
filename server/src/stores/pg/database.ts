// The PostgreSQL connection pool every PostgreSQL store shares. Opening waits for the server to
// accept connections, then runs the schema migrations (migrate.ts); transaction.ts makes one unit
// of work of several writes.

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

export interface OpenDatabaseOptions {
  maxConnections?: number;
  /** How long to wait for a server that is not up yet (refused, starting up, its name not yet known). */
  waitMs?: number;
  /** Called before each wait for the server, with the error that made it wait. */
  onWait?: (error: Error) => void;
}

/**
 * Waited for by default: an instance started beside its database (compose, systemd) must not exit
 * and restart while PostgreSQL starts. A restarted container gets a new address, which nginx,
 * having looked the name up once, never learns (issue 40: one instance never answered).
 */
const DEFAULT_WAIT_MS = 60_000;

/** Errors of a server that is not up yet, as opposed to a wrong password or a missing database. */
const NOT_UP_YET = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'ENOENT', '57P03']);

/** Connects to DATABASE_URL, waiting for the server to be up, and brings the schema up to date. */
export async function openDatabase(url: string, options: OpenDatabaseOptions = {}): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10 });
  // An idle client's error (the server restarted) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  try {
    await waitUntilUp(pool, options);
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

async function waitUntilUp(pool: pg.Pool, options: OpenDatabaseOptions): Promise<void> {
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
  for (let pause = 100; ; pause = Math.min(pause * 2, 2_000)) {
    try {
      await pool.query('SELECT 1');
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (!code || !NOT_UP_YET.has(code) || Date.now() + pause > deadline) throw error;
      options.onWait?.(error as Error);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** PostgreSQL's disk_full (SQLSTATE 53100): answered as 507 insufficient_storage, as a full DATA_DIR is. */
export function isDatabaseFull(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === '53100';
}
