// keys.json: one record per API key (its account: name, plan, auto_store) holding only the
// key's sha256. Rewritten only on admin changes, never on a render. The CLI may change the file
// beside a running server: writers take a lock file, and readers notice a replaced file by its
// identity (inode, mtime, size) and reload, so a key created, rotated or revoked elsewhere
// counts from the next request.

import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Low } from 'lowdb';
import { withFileLock } from './file-lock.ts';
import { openJsonDb } from './json-file.ts';

export interface KeyRecord {
  id: string;
  name: string;
  planId: string;
  autoStore: boolean;
  /** sha256 (hex) of the current key; null once revoked. */
  keyHash: string | null;
  createdAt: string;
  updatedAt: string;
  revokedAt: string | null;
}

interface KeysFile {
  keys: KeyRecord[];
}

export type KeyChanges = Partial<Pick<KeyRecord, 'name' | 'planId' | 'autoStore' | 'keyHash' | 'revokedAt' | 'updatedAt'>>;

/** API keys, wherever they are kept: KeysStore (keys.json) or stores/pg/keys.ts (PostgreSQL). */
export interface KeyStore {
  /** The live (not revoked) key whose hash this is. */
  findByHash(keyHash: string): Promise<KeyRecord | undefined>;
  /** A key record by id, revoked ones included. */
  get(id: string): Promise<KeyRecord | undefined>;
  /** Every key that is not revoked, oldest first. */
  list(): Promise<KeyRecord[]>;
  /** Adds records; resolves once they are durable. */
  insert(...records: KeyRecord[]): Promise<void>;
  /** Applies changes to a live key; undefined if there is no such live key (a revoked key never changes again). */
  update(id: string, changes: KeyChanges): Promise<KeyRecord | undefined>;
}

export class KeysStore implements KeyStore {
  private byHash = new Map<string, KeyRecord>();
  private byId = new Map<string, KeyRecord>();
  private identity = '';
  private queue: Promise<unknown> = Promise.resolve();
  private checking: Promise<void> | undefined;

  private constructor(
    private readonly db: Low<KeysFile>,
    private readonly file: string,
  ) {}

  /** Opens DATA_DIR/keys.json (empty when new). */
  static async open(dataDir: string): Promise<KeysStore> {
    const file = path.join(dataDir, 'keys.json');
    const store = new KeysStore(await openJsonDb<KeysFile>(file, { keys: [] }), file);
    store.index();
    store.identity = await fileIdentity(file);
    return store;
  }

  /** The live (not revoked) key whose hash this is, reading the file again if another process changed it. */
  async findByHash(keyHash: string): Promise<KeyRecord | undefined> {
    await this.refresh();
    return this.byHash.get(keyHash);
  }

  /** A key record by id, revoked ones included. */
  async get(id: string): Promise<KeyRecord | undefined> {
    await this.refresh();
    return this.byId.get(id);
  }

  /** Every key that is not revoked, oldest first. */
  async list(): Promise<KeyRecord[]> {
    await this.refresh();
    return this.db.data.keys.filter((record) => record.keyHash !== null);
  }

  /** Adds records and waits until they are on disk. */
  async insert(...records: KeyRecord[]): Promise<void> {
    await this.change(() => {
      this.db.data.keys.push(...records.map((record) => ({ ...record })));
    });
  }

  /** Applies changes to a live key and waits until they are on disk; undefined if there is no such live key (a revoked key never changes again). */
  async update(id: string, changes: KeyChanges): Promise<KeyRecord | undefined> {
    let updated: KeyRecord | undefined;
    await this.change(() => {
      const record = this.db.data.keys.find((candidate) => candidate.id === id);
      if (!record || record.keyHash === null) return false;
      Object.assign(record, changes);
      updated = { ...record };
      return true;
    });
    return updated;
  }

  /** Runs one read-modify-write under the lock file; the in-memory indexes follow the file. */
  private change(mutate: () => boolean | void): Promise<void> {
    return this.exclusive(() =>
      withFileLock(`${this.file}.lock`, async () => {
        await this.reloadIfReplaced();
        if (mutate() === false) return;
        this.index();
        await this.db.write();
        this.identity = await fileIdentity(this.file);
      }),
    );
  }

  private refresh(): Promise<void> {
    this.checking ??= this.exclusive(() => this.reloadIfReplaced()).finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async reloadIfReplaced(): Promise<void> {
    const identity = await fileIdentity(this.file);
    if (identity === this.identity) return;
    await this.db.read();
    this.index();
    this.identity = identity;
  }

  private index(): void {
    this.byHash = new Map();
    this.byId = new Map();
    for (const record of this.db.data.keys) {
      this.byId.set(record.id, record);
      if (record.keyHash !== null) this.byHash.set(record.keyHash, record);
    }
  }

  private exclusive<R>(work: () => Promise<R>): Promise<R> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

async function fileIdentity(file: string): Promise<string> {
  const info = await stat(file).catch(() => undefined);
  return info ? `${info.ino}:${info.mtimeMs}:${info.size}` : 'absent';
}
