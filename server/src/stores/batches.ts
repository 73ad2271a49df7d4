// Batches on disk: the file BatchStore (the contract and records: stores/batch-store.ts; its
// PostgreSQL twin, shared by several instances under leases: stores/pg/batches.ts).
//
// DATA_DIR/batches/<batch id>/ holds requests.json (the items' render requests, written once at
// creation and removed when the batch completes) and state.json (everything else: statuses,
// document ids, errors, webhook attempts), replaced whole, durably, on every change. state.json
// is the commit point of a new batch: a folder without one is a creation that was never
// answered, and open() removes it. Listing reads an in-memory index (per key and across keys)
// built from the state files at start-up. Knows no plans, clocks, rendering or HTTP.

import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { isAbandonedTempFile, StoreReadError, syncFolder, writeFileDurably } from './durable-file.ts';
import { indexOfKey, NewestFirstIndex, type Page } from './newest-first-index.ts';
import { CoalescingWriter } from './coalescing-writer.ts';
import { BacklogCounter, type BacklogLimits } from './batch-backlog.ts';
import type { BatchRecord, BatchStore, StoredItemRequest } from './batch-store.ts';
import { isId } from '../ids.ts';

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
    indexOfKey(this.byKey, record.keyId).insert(entry);
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
