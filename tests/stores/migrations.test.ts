// Schema migrations (stores/pg/migrate.ts): applied once, in order, under an advisory lock,
// even when instances start together; an older server refuses a newer schema.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { migrate, shippedMigrations } from '../../server/src/stores/pg/migrate.ts';
import { startTestDatabase } from '../helpers/postgres.ts';

const database = await startTestDatabase({ after });

test('instances starting together apply each migration exactly once', async () => {
  const pools = Array.from({ length: 3 }, () => new pg.Pool({ connectionString: database.url, max: 2 }));
  // An idle client's error when the test's database is dropped at its end must not crash the file.
  for (const pool of pools) pool.on('error', () => undefined);
  try {
    const applied = await Promise.all(pools.map((pool) => migrate(pool)));
    const shipped = (await shippedMigrations()).map((migration) => migration.version);
    assert.ok(shipped.length > 0);
    assert.deepEqual(
      applied.flat().sort((a, b) => a - b),
      shipped,
    );
    const { rows } = await pools[0]!.query('SELECT version FROM schema_migrations ORDER BY version');
    assert.deepEqual(
      rows.map((row) => row.version),
      shipped,
    );
    assert.deepEqual(await migrate(pools[0]!), []);
  } finally {
    await Promise.all(pools.map((pool) => pool.end()));
  }
});

test('a server refuses a schema newer than it knows, and a failed migration leaves nothing behind', async () => {
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  pool.on('error', () => undefined);
  try {
    const shipped = await shippedMigrations();
    const broken = { version: 900, name: 'broken', sql: 'CREATE TABLE half_done (id int); SELECT no_such_function();' };
    await assert.rejects(migrate(pool, [...shipped, broken]), /no_such_function/);
    assert.equal((await pool.query("SELECT to_regclass('half_done') AS t")).rows[0].t, null);
    await migrate(pool, [...shipped, { version: 901, name: 'later', sql: 'SELECT 1' }]);
    await assert.rejects(migrate(pool, shipped), /newer than this server knows/);
  } finally {
    await pool.end();
  }
});
