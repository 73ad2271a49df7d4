// Batches, wherever they are kept (the BatchStore interface below): on disk here, or in
// PostgreSQL (stores/pg/batches.ts), where several instances share them and each works only on
// the batches it holds a lease on.
//
// Batches on disk: DATA_DIR/batches/<batch id>/ holds requests.json (the items' render requests,
// written once at creation and removed when the batch completes) and state.json (everything
// else: statuses, document ids, errors, webhook attempts), replaced whole, durably, on every
// change. state.json is the commit point of a new batch: a folder without one is a creation that
// was never answered, and open() removes it. Listing reads an in-memory index (per key and across
// keys) built from the state files at start-up. Knows no plans, clocks, rendering or HTTP.

import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { isAbandonedTempFile, StoreReadError, syncFolder, writeFileDurably } from './durable-file.ts';
import { NewestFirstIndex, type Page } from './newest-first-index.ts';
import { CoalescingWriter } from './coalescing-writer.ts';
import { BacklogCounter, type BacklogLimits } from './batch-backlog.ts';
import { isId } from '../ids.ts';

export type BatchStatus = 'queued' | 'processing' | 'completed';
export type BatchItemStatus = 'queued' | 'rendering' | 'succeeded' | 'failed';
export type WebhookStatus = 'waiting' | 'pending' | 'delivered' | 'failed';

export interface ErrorRecord {
  code: string;
  detail: string;
}

/** One item's request as the services gave it (services/render-request.ts): kept as JSON, never read here. */
export type StoredItemRequest = object;

export interface BatchItemRecord {
  index: number;
  status: BatchItemStatus;
  /** Fixed at creation: the item's document is stored under this id, so a retry can find it. */
  documentId: string;
  filename: string | null;
  error: ErrorRecord | null;
  /** When the item last started (its charge, if any, is on file in that month or a later one). */
  startedAt: string | null;
  finishedAt: string | null;
  /** The receipt of the item's last render, when one was kept (services/receipts.ts). */
  receiptId?: string | null;
}

export interface WebhookAttemptRecord {
  attempt: number;
  at: string;
  /** The receiver's HTTP status; null when there was no answer. */
  statusCode: number | null;
  ok: boolean;
  error: ErrorRecord | null;
  durationMs: number;
  /** When the next try is due; null after the last one. */
  nextAttemptAt: string | null;
}

export interface WebhookRecord {
  url: string;
  /** As given; used to sign. Never shown by any endpoint. */
  secret: string | null;
  /** webhook-id: the same on every try, so receivers can drop repeats. */
  messageId: string;
  status: WebhookStatus;
  nextAttemptAt: string | null;
  attempts: WebhookAttemptRecord[];
}

export interface BatchRecord {
  id: string;
  keyId: string;
  /** sync: answered in the call; async: rendered in the background. */
  mode: 'sync' | 'async';
  status: BatchStatus;
  createdAt: string;
  completedAt: string | null;
  /** The record (not its documents, which keep their own) is deleted after this. */
  expiresAt: string;
  webhook: WebhookRecord | null;
  items: BatchItemRecord[];
  /** The W3C traceparent of the request that created it (OpenTelemetry on): its items and webhook continue that trace. */
  traceparent?: string;
}

interface IndexEntry {
  readonly id: string;
  readonly createdMs: number;
}

/** What open() found and repaired. */
export interface BatchScanReport {
  batches: number;
  unfinished: number;
  removedUncommitted: number;
  removedTempFiles: number;
}

const STATE = 'state.json';
const REQUESTS = 'requests.json';

/**
 * Batches and their items' states. An instance works on the batches it *holds* (their live
 * records, mutated in memory and written with save()): the files hold every batch (one process
 * owns DATA_DIR); PostgreSQL holds the batches this instance created or adopted, under a lease
 * that heartbeat() keeps alive, so those of an instance that died are adopted by another.
 */
export interface BatchStore {
  /**
   * Records a new batch, held by this instance; resolves once durable. With backlog limits (a
   * background batch): only if it fits beside the background batches not yet completed, its key's
   * and every key's, counted over every instance; BacklogFullError (nothing recorded) otherwise.
   */
  create(record: BatchRecord, requests: readonly StoredItemRequest[], backlog?: BacklogLimits): Promise<void>;
  /** Writes a held batch's current state (coalesced); PostgreSQL: refused with LeaseLostError once another instance adopted it. */
  save(record: BatchRecord): Promise<void>;
  /** The items' requests of a batch that has not completed. */
  requests(id: string): Promise<StoredItemRequest[]>;
  /** A completed batch needs its requests no more (they may hold personal data): deleted. */
  dropRequests(id: string): Promise<void>;
  /** The live record of a batch this instance holds; undefined for others (or once its lease was lost). */
  held(id: string): BatchRecord | undefined;
  /** Any batch by id (files: the live record; PostgreSQL: the last state written, the same on every instance). */
  get(id: string): Promise<BatchRecord | undefined>;
  /** A page of batches, newest first: one key's, or every key's when keyId is undefined. */
  page(keyId: string | undefined, limit: number, cursor: string | undefined): Promise<Page<BatchRecord>>;
  /**
   * Batches with work left (not completed, or a webhook pending) that no live instance holds,
   * now held by this one. Files: all of them, at the first call (start-up); nothing after.
   */
  adopt(): Promise<BatchRecord[]>;
  /** This instance is done with a batch (completed, webhook settled): it is held no more. */
  release(id: string): Promise<void>;
  /** Keeps this instance's leases alive; batches whose lease was lost are held no more. */
  heartbeat(): Promise<void>;
  /** Deletes completed batch records past their expiry with nothing left to deliver; returns how many. */
  prune(nowMs: number): Promise<number>;
  /** Waits for every write in flight (shutdown). */
  flush(): Promise<void>;
  /** Shutdown, after the last write: the batches held here are held no more (PostgreSQL: others adopt them at once, not when the lease runs out). */
  handBack(): Promise<void>;
}

/** A held batch was adopted by another instance (this one was presumed dead): it must stop working on it. */
export class LeaseLostError extends Error {
  constructor(readonly batchId: string) {
    super(`batch ${batchId} is held by another instance now`);
    this.name = 'LeaseLostError';
  }
}

export class FileBatchStore implements BatchStore {
  private adopted = false;
  private readonly records = new Map<string, BatchRecord>();
  private readonly all = new NewestFirstIndex<IndexEntry>();
  private readonly byKey = new Map<string, NewestFirstIndex<IndexEntry>>();
  private readonly writers = new Map<string, CoalescingWriter>();
  /** Background batches not yet completed (one process owns DATA_DIR: memory is the whole truth). */
  private readonly backlog = new BacklogCounter();

  private constructor(readonly root: string) {}

  /** Opens DATA_DIR/batches: removes uncommitted creations and temp files, indexes every state file. */
  static async open(
    dataDir: string,
    warn: (details: Record<string, unknown>, message: string) => void = () => undefined,
  ): Promise<{ store: FileBatchStore; report: BatchScanReport }> {
    const store = new FileBatchStore(path.join(dataDir, 'batches'));
    await mkdir(store.root, { recursive: true, mode: 0o700 });
    const report = await store.scan(warn);
    return { store, report };
  }

  /** Admits it (backlog), writes the requests, then the state (the commit point); resolves once both are durable. */
  async create(record: BatchRecord, requests: readonly StoredItemRequest[], backlog?: BacklogLimits): Promise<void> {
    if (!isId(record.id, 'bat')) throw new Error(`unsafe batch id ${record.id}`);
    const text = JSON.stringify(requests);
    // Counted from here, before any await, so concurrent creations see each other.
    if (backlog) this.backlog.admit(record.id, record.keyId, record.items.length, Buffer.byteLength(text), backlog);
    const folder = this.folderOf(record.id);
    try {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await syncFolder(this.root);
      await writeFileDurably(path.join(folder, REQUESTS), text);
      await writeFileDurably(path.join(folder, STATE), JSON.stringify(record));
    } catch (error) {
      this.backlog.remove(record.id);
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
    this.index(record);
  }

  /**
   * Writes the record's current state; resolves once it (or a later state) is durable. Writes
   * that arrive while one is in flight are coalesced into the next.
   */
  save(record: BatchRecord): Promise<void> {
    if (record.status === 'completed') this.backlog.remove(record.id);
    let writer = this.writers.get(record.id);
    if (!writer) {
      writer = durableWriter(path.join(this.folderOf(record.id), STATE));
      this.writers.set(record.id, writer);
    }
    return writer.write(JSON.stringify(record));
  }

  /** The items' requests of a batch that has not completed. */
  async requests(id: string): Promise<StoredItemRequest[]> {
    return JSON.parse(await readFile(path.join(this.folderOf(id), REQUESTS), 'utf8')) as StoredItemRequest[];
  }

  /** A completed batch needs its requests no more (they may hold personal data): deleted. */
  async dropRequests(id: string): Promise<void> {
    await rm(path.join(this.folderOf(id), REQUESTS), { force: true });
  }

  held(id: string): BatchRecord | undefined {
    return this.records.get(id);
  }

  async get(id: string): Promise<BatchRecord | undefined> {
    return this.records.get(id);
  }

  /** Every batch with work left (not completed, or its webhook pending), oldest first; once. */
  async adopt(): Promise<BatchRecord[]> {
    if (this.adopted) return [];
    this.adopted = true;
    return this.all
      .all()
      .map((entry) => this.records.get(entry.id)!)
      .filter((record) => record.status !== 'completed' || record.webhook?.status === 'pending');
  }

  /** One process owns DATA_DIR: nothing to hand back or keep alive. */
  async release(): Promise<void> {}

  async heartbeat(): Promise<void> {}

  async handBack(): Promise<void> {}

  async prune(nowMs: number): Promise<number> {
    const due = [...this.records.values()].filter(
      (record) => record.status === 'completed' && record.webhook?.status !== 'pending' && Date.parse(record.expiresAt) <= nowMs,
    );
    for (const record of due) await this.remove(record.id);
    return due.length;
  }

  async page(keyId: string | undefined, limit: number, cursor: string | undefined): Promise<Page<BatchRecord>> {
    const index = keyId === undefined ? this.all : (this.byKey.get(keyId) ?? new NewestFirstIndex<IndexEntry>());
    const page = index.page(limit, cursor);
    return { items: page.items.map((entry) => this.records.get(entry.id)!), nextCursor: page.nextCursor };
  }

  /** Deletes a batch record for good (its documents stay, with their own retention). */
  async remove(id: string): Promise<void> {
    const record = this.records.get(id);
    if (!record) return;
    this.records.delete(id);
    const entry = { id, createdMs: Date.parse(record.createdAt) };
    this.all.remove(entry);
    this.byKey.get(record.keyId)?.remove(entry);
    await this.writers.get(id)?.idle();
    this.writers.delete(id);
    await rm(this.folderOf(id), { recursive: true, force: true });
    await syncFolder(this.root);
  }

  /** Waits for every write in flight (shutdown). */
  async flush(): Promise<void> {
    await Promise.all([...this.writers.values()].map((writer) => writer.idle()));
  }

  private index(record: BatchRecord): void {
    this.records.set(record.id, record);
    const entry = { id: record.id, createdMs: Date.parse(record.createdAt) };
    this.all.insert(entry);
    let keyIndex = this.byKey.get(record.keyId);
    if (!keyIndex) {
      keyIndex = new NewestFirstIndex();
      this.byKey.set(record.keyId, keyIndex);
    }
    keyIndex.insert(entry);
  }

  private folderOf(id: string): string {
    return path.join(this.root, id);
  }

  private async scan(_warn: (details: Record<string, unknown>, message: string) => void): Promise<BatchScanReport> {
    const report: BatchScanReport = { batches: 0, unfinished: 0, removedUncommitted: 0, removedTempFiles: 0 };
    for (const name of await readdir(this.root)) {
      const folder = path.join(this.root, name);
      if (!isId(name, 'bat')) continue;
      const files = await readdir(folder).catch(() => [] as string[]);
      for (const file of files) {
        if (isAbandonedTempFile(file, true)) {
          await rm(path.join(folder, file), { force: true });
          report.removedTempFiles++;
        }
      }
      if (!files.includes(STATE)) {
        // Never committed: the call that created it was not answered.
        await rm(folder, { recursive: true, force: true });
        report.removedUncommitted++;
        continue;
      }
      const record = readBatchState(path.join(folder, STATE));
      // Never written by us (renames are atomic): start-up stops, naming it, and leaves it as it is.
      if (record instanceof Error) throw new StoreReadError(path.join(folder, STATE), record.message);
      // Completed, then stopped before its requests were deleted: delete them now.
      if (record.status === 'completed' && files.includes(REQUESTS)) await rm(path.join(folder, REQUESTS), { force: true });
      this.index(record);
      report.batches++;
      if (record.status !== 'completed') report.unfinished++;
      // A background batch still waiting counts against the backlog again (issue 11); its requests file is the JSON counted.
      if (record.status !== 'completed' && record.mode === 'async' && files.includes(REQUESTS)) {
        this.backlog.add(record.id, record.keyId, record.items.length, (await stat(path.join(folder, REQUESTS))).size);
      }
    }
    return report;
  }
}

/** Reads one state file at start-up (synchronously: nothing is served yet). */
export function readBatchState(file: string): BatchRecord | Error {
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as BatchRecord;
    if (typeof record?.id !== 'string' || typeof record.keyId !== 'string' || !Array.isArray(record.items) || Number.isNaN(Date.parse(record.createdAt))) {
      return new Error('not a batch state file');
    }
    if (record.id !== path.basename(path.dirname(file))) return new Error('its id does not match its folder');
    return record;
  } catch (error) {
    return error as Error;
  }
}

function durableWriter(file: string): CoalescingWriter {
  return new CoalescingWriter((text) => writeFileDurably(file, text));
}
