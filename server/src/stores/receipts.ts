// Render receipts (services/accounts/receipts.ts): one JSON document per render that asked for one, kept
// until its expiry (the stored document's, or RECEIPT_RETENTION_HOURS), then pruned by the
// retention sweeper. The files keep one file per receipt under DATA_DIR/receipts/, named by its
// expiry and id, so start-up lists names only and the sweeper never opens a file to prune it.

import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { asStorageError, isAbandonedTempFile } from './durable-file.ts';
import { isId } from '../ids.ts';

export interface ReceiptRecord {
  id: string;
  /** The key it belongs to; null for the playground (readable with its id alone) and admin previews. */
  keyId: string | null;
  createdAt: string;
  expiresAt: string;
  /** The receipt as the API shows it (services/accounts/receipts.ts Receipt). */
  body: Record<string, unknown>;
}

/** Receipts, wherever they are kept: the files here or stores/pg/receipts.ts. */
export interface ReceiptStore {
  /** Keeps a receipt; resolves once any reader (any instance) finds it. */
  put(record: ReceiptRecord): Promise<void>;
  /** A receipt not yet past its expiry. */
  get(id: string, now: Date): Promise<ReceiptRecord | undefined>;
  /** Deletes receipts past their expiry; resolves with how many. */
  prune(now: Date): Promise<number>;
}

let writes = 0;
const FILE_NAME = /^(\d{13})-(rcp_[A-Za-z0-9]+)\.json$/;

export class FileReceiptStore implements ReceiptStore {
  /** id -> expiry (epoch ms); the file is `${expiry}-${id}.json`. */
  private readonly expiries = new Map<string, number>();

  private constructor(private readonly folder: string) {}

  // Opens like the presets store, but lists file names only (an expiry and an id each) and reads no file.
  /** Opens DATA_DIR/receipts (created when missing), listing names only; leftovers of interrupted writes are removed. */
  static async open(dataDir: string): Promise<FileReceiptStore> {
    const store = new FileReceiptStore(path.join(dataDir, 'receipts'));
    await mkdir(store.folder, { recursive: true });
    for (const name of await readdir(store.folder)) {
      const match = FILE_NAME.exec(name);
      if (match) store.expiries.set(match[2]!, Number(match[1]));
      else if (isAbandonedTempFile(name, true)) await rm(path.join(store.folder, name), { force: true });
    }
    return store;
  }

  async put(record: ReceiptRecord): Promise<void> {
    if (!isId(record.id, 'rcp')) throw new Error(`not a receipt id: ${record.id}`);
    const expires = Date.parse(record.expiresAt);
    // Atomic (never a torn file: a temporary file renamed) but not fsync'd, and written with two
    // synchronous calls of a few tens of microseconds rather than four trips through the thread
    // pool: a receipt is a diagnosis with a CPU budget of its own
    // (docs/decisions.md#render-receipts-recorded-only-when-wanted). A power cut may lose the last
    // few receipts; a stored document they describe is fsync'd as always.
    const file = this.fileOf(record.id, expires);
    const temp = path.join(this.folder, `.${path.basename(file)}.${process.pid}-${++writes}.tmp`);
    try {
      writeFileSync(temp, JSON.stringify(record), { mode: 0o600 });
      renameSync(temp, file);
    } catch (error) {
      rmSync(temp, { force: true });
      throw asStorageError(file, error);
    }
    this.expiries.set(record.id, expires);
  }

  async get(id: string, now: Date): Promise<ReceiptRecord | undefined> {
    const expires = this.expiries.get(id);
    if (expires === undefined || expires <= now.getTime()) return undefined;
    try {
      return JSON.parse(await readFile(this.fileOf(id, expires), 'utf8')) as ReceiptRecord;
    } catch (error) {
      // Pruned meanwhile (by this instance's sweeper): gone, as it would be a moment later.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async prune(now: Date): Promise<number> {
    let pruned = 0;
    for (const [id, expires] of this.expiries) {
      if (expires > now.getTime()) continue;
      await rm(this.fileOf(id, expires), { force: true });
      this.expiries.delete(id);
      pruned++;
    }
    return pruned;
  }

  private fileOf(id: string, expires: number): string {
    return path.join(this.folder, `${String(expires).padStart(13, '0')}-${id}.json`);
  }
}
