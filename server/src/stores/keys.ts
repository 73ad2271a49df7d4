// keys.json: one record per API key (its account: name, plan, auto_store) holding only the
// key's sha256. Rewritten only on admin changes, never on a render. One process owns DATA_DIR
// (stores/data-dir-lock.ts), so memory is the truth once loaded; a change is written durably
// first and applied to memory only after, so a failed write (a full disk) changes nothing.
// A keys.json that does not parse or validate stops start-up (StoreReadError); it is never emptied.

import path from 'node:path';
import { NewestFirstIndex, type Page } from './newest-first-index.ts';
import { openJsonFile, type JsonFile } from './json-file.ts';
import { isId } from '../ids.ts';

/** Which renders of a key keep a receipt (services/accounts/receipts.ts): those stored, all, or only those that ask. */
export type ReceiptMode = 'stored' | 'all' | 'off';
export const RECEIPT_MODES: readonly ReceiptMode[] = ['stored', 'all', 'off'];

export interface KeyRecord {
  id: string;
  name: string;
  planId: string;
  autoStore: boolean;
  /** Left out: 'stored' (records written before receipts existed have none). */
  receipts?: ReceiptMode;
  /** sha256 (hex) of the current key; null once revoked. */
  keyHash: string | null;
  createdAt: string;
  updatedAt: string;
  revokedAt: string | null;
}

interface KeysFile {
  keys: KeyRecord[];
}

export type KeyChanges = Partial<Pick<KeyRecord, 'name' | 'planId' | 'autoStore' | 'receipts' | 'keyHash' | 'revokedAt' | 'updatedAt'>>;

interface LiveEntry {
  readonly id: string;
  readonly createdMs: number;
}

/** API keys, wherever they are kept: KeysStore (keys.json) or stores/pg/keys.ts (PostgreSQL). */
export interface KeyStore {
  /** The live (not revoked) key whose hash this is. */
  findByHash(keyHash: string): Promise<KeyRecord | undefined>;
  /** A key record by id, revoked ones included. */
  get(id: string): Promise<KeyRecord | undefined>;
  /** Every key that is not revoked, oldest first. */
  list(): Promise<KeyRecord[]>;
  /** A page of live keys, newest first, behind the cursor form of stores/newest-first-index.ts. */
  page(limit: number, cursor: string | undefined): Promise<Page<KeyRecord>>;
  /** Adds records; resolves once they are durable. */
  insert(...records: KeyRecord[]): Promise<void>;
  /** Applies changes to a live key; undefined if there is no such live key (a revoked key never changes again). */
  update(id: string, changes: KeyChanges): Promise<KeyRecord | undefined>;
}

export class KeysStore implements KeyStore {
  private records: KeyRecord[] = [];
  private byHash = new Map<string, KeyRecord>();
  private byId = new Map<string, KeyRecord>();
  private live = new NewestFirstIndex<LiveEntry>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly file: JsonFile<KeysFile>) {}

  /** Opens DATA_DIR/keys.json (empty when new); throws StoreReadError for a damaged file. */
  static async open(dataDir: string): Promise<KeysStore> {
    const { file, data } = await openJsonFile<KeysFile>(path.join(dataDir, 'keys.json'), validateKeysFile, { keys: [] });
    const store = new KeysStore(file);
    store.apply(data.keys.map(withReceiptMode));
    return store;
  }

  /** The live (not revoked) key whose hash this is. */
  async findByHash(keyHash: string): Promise<KeyRecord | undefined> {
    return this.byHash.get(keyHash);
  }

  /** A key record by id, revoked ones included. */
  async get(id: string): Promise<KeyRecord | undefined> {
    return this.byId.get(id);
  }

  /** Every key that is not revoked, oldest first. */
  async list(): Promise<KeyRecord[]> {
    return this.records.filter((record) => record.keyHash !== null);
  }

  /** A page of live keys, newest first (same cursor rules as documents). */
  async page(limit: number, cursor: string | undefined): Promise<Page<KeyRecord>> {
    const page = this.live.page(limit, cursor);
    return { items: page.items.map((entry) => this.byId.get(entry.id)!), nextCursor: page.nextCursor };
  }

  /** Adds records: written durably, then applied. */
  async insert(...records: KeyRecord[]): Promise<void> {
    await this.change((current) => [...current, ...records.map(withReceiptMode)]);
  }

  /** Applies changes to a live key once they are durable; undefined if there is no such live key (a revoked key never changes again). */
  async update(id: string, changes: KeyChanges): Promise<KeyRecord | undefined> {
    let updated: KeyRecord | undefined;
    await this.change((current) => {
      const at = current.findIndex((candidate) => candidate.id === id);
      if (at < 0 || current[at]!.keyHash === null) return undefined;
      updated = { ...current[at]!, ...changes };
      const next = [...current];
      next[at] = updated;
      return next;
    });
    return updated ? { ...updated } : undefined;
  }

  /** One change at a time: the next list is built, written durably, and only then swapped in. */
  private change(next: (current: readonly KeyRecord[]) => KeyRecord[] | undefined): Promise<void> {
    const run = this.queue.then(async () => {
      const records = next(this.records);
      if (!records) return;
      await this.file.write({ keys: records });
      this.apply(records);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private apply(records: KeyRecord[]): void {
    this.records = records;
    this.byHash = new Map();
    this.byId = new Map();
    const live: LiveEntry[] = [];
    for (const record of records) {
      this.byId.set(record.id, record);
      if (record.keyHash !== null) {
        this.byHash.set(record.keyHash, record);
        live.push({ id: record.id, createdMs: Date.parse(record.createdAt) });
      }
    }
    this.live = new NewestFirstIndex();
    this.live.load(live);
  }
}

/** A copy with the receipt setting spelled out, as PostgreSQL's column default does. */
function withReceiptMode(record: KeyRecord): KeyRecord {
  return { ...record, receipts: record.receipts ?? 'stored' };
}

function validateKeysFile(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || !Array.isArray((data as KeysFile).keys))
    return `expected {"keys": [...]}, found ${data === null ? 'null' : typeof data}`;
  for (const [at, record] of (data as KeysFile).keys.entries()) {
    const problem = validateKey(record);
    if (problem) return `keys[${at}] ${problem}`;
  }
  return undefined;
}

function validateKey(record: KeyRecord): string | undefined {
  if (typeof record !== 'object' || record === null) return 'is not an object';
  if (typeof record.id !== 'string' || !isId(record.id, 'key')) return 'has no valid id';
  if (typeof record.name !== 'string' || typeof record.planId !== 'string' || typeof record.autoStore !== 'boolean')
    return `(${record.id}) lacks name, planId or autoStore`;
  if (record.receipts !== undefined && !RECEIPT_MODES.includes(record.receipts)) return `(${record.id}) has receipts other than ${RECEIPT_MODES.join(', ')}`;
  if (record.keyHash !== null && !/^[0-9a-f]{64}$/.test(String(record.keyHash))) return `(${record.id}) has no valid keyHash`;
  if (Number.isNaN(Date.parse(record.createdAt))) return `(${record.id}) has no valid createdAt`;
  return undefined;
}
