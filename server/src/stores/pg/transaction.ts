// One unit of work on PostgreSQL: several writes committed together or not at all. Kept apart
// from database.ts so the migrations, which run while the database is being opened, can use it.

import type pg from 'pg';

/** A pool (one statement, its own transaction) or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

/** Runs work in one transaction on a pooled client. */
export async function inTransaction<R>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<R>): Promise<R> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
