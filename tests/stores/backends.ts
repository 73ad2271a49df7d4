// The two store back-ends the contract suites run against: the files under a temporary DATA_DIR
// and a PostgreSQL database of this test file's own (tests/helpers/postgres.ts). A suite is
// written once as `(backend) => void` and registered for both.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe } from 'node:test';
import { openDatabase, type Database } from '../../server/src/stores/pg/database.ts';
import { startTestDatabase, type TestDatabase } from '../helpers/postgres.ts';

export interface Backend {
  readonly kind: 'files' | 'postgresql';
  /** A fresh DATA_DIR (files) for one test; the same database otherwise (tests use their own ids). */
  dataDir(): Promise<string>;
  /** The shared database (postgresql only). */
  database(): Database;
  /** A second, independent connection pool to the same database: another instance (postgresql only). */
  otherInstance(): Promise<Database>;
}

/** Registers the suite once per back-end, each in its own describe block. */
export function forEachBackend(suite: (backend: Backend) => void): void {
  describe('files', () => {
    const folders: string[] = [];
    after(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))).then(() => undefined));
    suite({
      kind: 'files',
      async dataDir() {
        const folder = await mkdtemp(path.join(os.tmpdir(), 'quire-contract-'));
        folders.push(folder);
        return folder;
      },
      database: () => {
        throw new Error('files back-end has no database');
      },
      otherInstance: () => Promise.reject(new Error('files back-end has no database')),
    });
  });
  describe('postgresql', () => {
    let server: TestDatabase;
    let database: Database;
    const others: Database[] = [];
    before(async () => {
      server = await startTestDatabase({ after: () => undefined });
      database = await openDatabase(server.url);
    });
    after(async () => {
      await Promise.all(others.map((other) => other.close()));
      await database?.close();
      await server?.close();
    });
    suite({
      kind: 'postgresql',
      dataDir: () => mkdtemp(path.join(os.tmpdir(), 'quire-contract-')),
      database: () => database,
      async otherInstance() {
        const other = await openDatabase(server.url);
        others.push(other);
        return other;
      },
    });
  });
}
