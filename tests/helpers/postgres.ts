// A PostgreSQL server for tests. DATABASE_URL points the tests at an existing server; otherwise
// this starts a throwaway cluster (initdb + pg_ctl on a temporary folder, Unix socket only, no
// TCP port), run as the `postgres` user when the tests run as root (PostgreSQL refuses root),
// stopped and deleted when the test file ends. Either way each test file gets its own database.
// A missing PostgreSQL is a failure, never a skip: CI installs it (scripts/setup.sh).

import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const run = promisify(execFile);

export interface TestDatabase {
  /** Connection URL of this test file's own database. */
  url: string;
  /** Drops the database (and stops the cluster this helper started). */
  close(): Promise<void>;
}

type Hook = { after: (fn: () => Promise<void>) => void };

/**
 * A fresh database for one test file; dropped (and its cluster stopped) in `after`. `durable`
 * keeps fsync and synchronous commit on (benchmarks comparing with the fsync'd files).
 */
export async function startTestDatabase(t: Hook, options: { durable?: boolean } = {}): Promise<TestDatabase> {
  const server = process.env.DATABASE_URL ? { url: process.env.DATABASE_URL, stop: async () => undefined } : await startCluster(options.durable ?? false);
  const name = `quire_test_${randomBytes(6).toString('hex')}`;
  try {
    await adminQuery(server.url, `CREATE DATABASE ${name}`);
  } catch (error) {
    await server.stop();
    throw error;
  }
  const database: TestDatabase = {
    url: withDatabase(server.url, name),
    async close() {
      await adminQuery(server.url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await server.stop();
    },
  };
  t.after(() => database.close());
  return database;
}

/**
 * A fresh database on a server shared by the whole test file: DATABASE_URL, else one throwaway
 * cluster started on first use. The caller drops the database with close(); the cluster is
 * stopped by stopSharedServer() (the two-instance lane calls it from a file-level after hook).
 */
export async function createSharedTestDatabase(): Promise<TestDatabase> {
  shared ??= process.env.DATABASE_URL ? Promise.resolve({ url: process.env.DATABASE_URL, stop: async () => undefined }) : startCluster(false);
  const server = await shared;
  const name = `quire_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(server.url, `CREATE DATABASE ${name}`);
  return {
    url: withDatabase(server.url, name),
    close: () => adminQuery(server.url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined),
  };
}

let shared: Promise<{ url: string; stop: () => Promise<void> }> | undefined;

/** Stops the cluster createSharedTestDatabase() started, if any. */
export async function stopSharedServer(): Promise<void> {
  const server = await shared?.catch(() => undefined);
  shared = undefined;
  await server?.stop();
}

/** The folder of initdb/pg_ctl: PG_BIN, else the newest Debian /usr/lib/postgresql/N/bin, else PATH. */
function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((name) => existsSync(path.join(root, name, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : '';
}

async function startCluster(durable: boolean): Promise<{ url: string; stop: () => Promise<void> }> {
  const bin = binDir();
  const tool = (name: string) => (bin ? path.join(bin, name) : name);
  const asRoot = process.getuid?.() === 0;
  const folder = await mkdtemp(path.join(os.tmpdir(), 'quire-pg-'));
  const dataDir = path.join(folder, 'data');
  // The server runs as postgres and needs the folder to itself (its socket goes there too).
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']).catch(() => {
      throw new Error('tests run as root and there is no postgres user: install PostgreSQL (npm run setup) or set DATABASE_URL');
    });
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(folder, Number(stdout.trim()), Number(gid.trim()));
  }
  await chmod(folder, 0o700);
  const as = (command: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args));
  try {
    await as(tool('initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
    // fsync off: a throwaway cluster has nothing to keep across a power cut (tests only).
    const unsafe = durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
    const options = `-k ${folder} -c listen_addresses='' -c max_connections=200${unsafe}`;
    await as(tool('pg_ctl'), ['-D', dataDir, '-o', options, '-l', path.join(folder, 'server.log'), '-w', '-t', '60', 'start']);
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    const message =
      (error as { code?: string }).code === 'ENOENT'
        ? 'initdb/pg_ctl not found: install PostgreSQL (npm run setup), set PG_BIN, or set DATABASE_URL'
        : String((error as { stderr?: string }).stderr || error);
    throw new Error(`could not start a PostgreSQL cluster for the tests: ${message}`);
  }
  return {
    url: `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(folder)}`,
    async stop() {
      await as(tool('pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(folder, { recursive: true, force: true });
    },
  };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
