// Stored documents on disk: DATA_DIR/documents/<key id>/<doc id>.pdf with a small JSON sidecar
// <doc id>.json beside it. The PDF is written first and the sidecar last, each atomically and
// durably: the sidecar's presence is the commit point, so a crash leaves a complete document or
// leftovers that open() removes. Nothing is rewritten whole per render: a stored render writes
// two new files, and listing reads an in-memory index (per key and across keys) built at start-up
// from the index snapshot for unchanged key folders and by reading the sidecars of the others.
// An expired document keeps its sidecar as a tombstone (state "expired", no PDF) so it answers
// 410 across restarts until the tombstone itself is dropped. Knows no plans, clocks or HTTP.

// Split: the contract is document-store.ts, the start-up repair of a key folder
// documents-reconcile.ts; this file keeps the index and the steady-state file IO.

import { statSync } from 'node:fs';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { isFolderUnchanged, readDocumentsSnapshot, writeDocumentsSnapshot, type FolderStamp } from './documents-snapshot.ts';
import path from 'node:path';
import { type ReconcileReport, scanKeyFolder } from './documents-reconcile.ts';
import type { DocumentStore } from './document-store.ts';
import { syncFolder, writeFileDurably } from './durable-file.ts';
import { indexOfKey, NewestFirstIndex, type Page } from './newest-first-index.ts';
import type { PdfReader } from './pdf-blobs.ts';
import type { DocumentRecord, StoredDocument } from './document-record.ts';
import { isId } from '../ids.ts';

export interface DocumentsStoreOptions {
  /** false skips fsync: only for benches that seed 100,000 documents. */
  sync?: boolean;
  /** Told about anomalies found at start-up (unreadable sidecars, leftovers removed). */
  warn?: (details: Record<string, unknown>, message: string) => void;
}

export class DocumentsStore implements DocumentStore {
  private readonly all = new NewestFirstIndex<StoredDocument>();
  private readonly byKey = new Map<string, NewestFirstIndex<StoredDocument>>();
  private readonly byId = new Map<string, StoredDocument>();
  private readonly tombstones = new Map<string, StoredDocument>();
  private readonly folders = new Map<string, Promise<unknown>>();
  private readonly expiring = new Map<string, Promise<void>>();
  private readonly sync: boolean;

  private constructor(
    readonly root: string,
    options: DocumentsStoreOptions,
  ) {
    this.sync = options.sync ?? true;
  }

  /** Opens DATA_DIR/documents: removes leftovers of interrupted writes and indexes every sidecar. */
  static async open(dataDir: string, options: DocumentsStoreOptions = {}): Promise<{ store: DocumentsStore; report: ReconcileReport }> {
    const store = new DocumentsStore(path.join(dataDir, 'documents'), options);
    await mkdir(store.root, { recursive: true });
    const report = await store.scan();
    return { store, report };
  }

  /** Writes the PDF, then its sidecar (the commit point); the document is listed once both are durable. */
  async put(record: DocumentRecord, pdf: Uint8Array): Promise<StoredDocument> {
    if (!isId(record.id) || !isId(record.keyId)) throw new Error(`unsafe document file name ${record.keyId}/${record.id}`);
    await this.folderOf(record.keyId);
    const files = this.filesOf(record);
    await writeFileDurably(files.pdf, pdf, { sync: this.sync });
    try {
      await writeFileDurably(files.sidecar, JSON.stringify(record), { sync: this.sync });
    } catch (error) {
      await rm(files.pdf, { force: true });
      await rm(files.sidecar, { force: true });
      throw error;
    }
    const stored = withTimes(record);
    this.index(stored);
    return stored;
  }

  /** A stored (not expired) document by id, any key. */
  async get(id: string): Promise<StoredDocument | undefined> {
    return this.byId.get(id);
  }

  /** An expired document's tombstone by id. */
  async tombstone(id: string): Promise<StoredDocument | undefined> {
    return this.tombstones.get(id);
  }

  /** A page of stored documents, newest first: one key's, or every key's when keyId is undefined. */
  async page(keyId: string | undefined, limit: number, cursor: string | undefined, liveAtMs: number): Promise<Page<StoredDocument>> {
    // A key with nothing stored still checks the cursor, through an empty index.
    const index = keyId === undefined ? this.all : (this.byKey.get(keyId) ?? new NewestFirstIndex<StoredDocument>());
    return index.page(limit, cursor, (document) => document.expiresMs > liveAtMs);
  }

  /** Opens a stored document's PDF for reading; undefined when it is gone (deleted or expired meanwhile). */
  async openPdf(document: StoredDocument): Promise<PdfReader | undefined> {
    try {
      return await open(this.filesOf(document).pdf, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Deletes a document for good: unlisted at once, then its sidecar and bytes removed. False if it was not stored. */
  async remove(id: string): Promise<boolean> {
    const document = this.byId.get(id);
    if (!document) return false;
    this.unindex(document);
    const files = this.filesOf(document);
    await rm(files.sidecar, { force: true });
    await rm(files.pdf, { force: true });
    if (this.sync) await syncFolder(path.dirname(files.pdf));
    return true;
  }

  /**
   * Retention ended: the sidecar becomes a tombstone, then the bytes are deleted. Resolves once
   * they are gone, also when another caller started the expiry; false if it was not stored.
   */
  async expire(id: string, at: Date): Promise<boolean> {
    const inFlight = this.expiring.get(id);
    if (inFlight) return inFlight.then(() => false);
    const document = this.byId.get(id);
    if (!document) return false;
    this.unindex(document);
    const tombstone: StoredDocument = { ...document, state: 'expired', expiredAt: at.toISOString() };
    this.tombstones.set(id, tombstone);
    const files = this.filesOf(document);
    const work = (async () => {
      await writeFileDurably(files.sidecar, JSON.stringify(toRecord(tombstone)), { sync: this.sync });
      await rm(files.pdf, { force: true });
      if (this.sync) await syncFolder(path.dirname(files.pdf));
    })().finally(() => this.expiring.delete(id));
    this.expiring.set(id, work);
    await work;
    return true;
  }

  /** Forgets a tombstone: the id answers 404 from then on. */
  async dropTombstone(id: string): Promise<void> {
    const tombstone = this.tombstones.get(id);
    if (!tombstone) return;
    this.tombstones.delete(id);
    await rm(this.filesOf(tombstone).sidecar, { force: true });
  }

  /** Stored documents whose expiry is at or before `ms`, and tombstones of documents that expired at or before `tombstoneMs`. */
  async due(ms: number, tombstoneMs: number): Promise<{ expired: StoredDocument[]; tombstones: StoredDocument[] }> {
    const expired: StoredDocument[] = [];
    for (const document of this.byId.values()) if (document.expiresMs <= ms) expired.push(document);
    const tombstones: StoredDocument[] = [];
    for (const tombstone of this.tombstones.values()) if (tombstone.expiresMs <= tombstoneMs) tombstones.push(tombstone);
    return { expired, tombstones };
  }

  /** Counts, for logs and the bench. */
  counts(): { documents: number; tombstones: number } {
    return { documents: this.byId.size, tombstones: this.tombstones.size };
  }

  private index(document: StoredDocument): void {
    this.byId.set(document.id, document);
    this.all.insert(document);
    indexOfKey(this.byKey, document.keyId).insert(document);
  }

  private unindex(document: StoredDocument): void {
    this.byId.delete(document.id);
    this.all.remove(document);
    this.byKey.get(document.keyId)?.remove(document);
  }

  private filesOf(document: Pick<DocumentRecord, 'id' | 'keyId'>): { pdf: string; sidecar: string } {
    const base = path.join(this.root, document.keyId, document.id);
    return { pdf: `${base}.pdf`, sidecar: `${base}.json` };
  }

  private folderOf(keyId: string): Promise<unknown> {
    let ready = this.folders.get(keyId);
    if (!ready) {
      // The new folder's own entry must be durable too, or a power cut could lose the whole folder.
      ready = mkdir(path.join(this.root, keyId), { recursive: true, mode: 0o700 }).then(() => (this.sync ? syncFolder(this.root) : undefined));
      this.folders.set(keyId, ready);
      ready.catch(() => this.folders.delete(keyId));
    }
    return ready;
  }

  /**
   * Start-up: index every sidecar, taking unchanged key folders from the index snapshot
   * (stores/documents-snapshot.ts) and scanning the others; then records a new snapshot.
   */
  private async scan(): Promise<ReconcileReport> {
    const report: ReconcileReport = {
      documents: 0,
      tombstones: 0,
      scannedFolders: 0,
      snapshotFolders: 0,
      removedTempFiles: 0,
      removedOrphanPdfs: 0,
      removedOrphanSidecars: 0,
    };
    const snapshot = await readDocumentsSnapshot(this.root);
    const folders = new Map<string, FolderStamp>();
    const trusted = new Set<string>();
    const scanned: StoredDocument[] = [];
    for (const keyId of await readdir(this.root)) {
      if (!isId(keyId)) continue;
      const folder = path.join(this.root, keyId);
      // Synchronous, as the sidecar reads: nothing is served yet, and 10,000 folders cost a thread-pool round trip each otherwise.
      const before = statSync(folder, { bigint: true, throwIfNoEntry: false });
      if (!before?.isDirectory()) continue;
      const previous = snapshot.folders.get(keyId);
      if (isFolderUnchanged(previous, before.mtimeNs)) {
        folders.set(keyId, previous!);
        trusted.add(keyId);
        report.snapshotFolders++;
        continue;
      }
      for (const record of await scanKeyFolder(folder, report, this.sync)) scanned.push(withTimes(record));
      // Nothing else writes during start-up (one owner), so the folder as it is now is what was read.
      folders.set(keyId, { mtimeNs: String(statSync(folder, { bigint: true }).mtimeNs), statMs: Date.now() });
      report.scannedFolders++;
    }
    // Snapshot rows come sorted; only rows of folders read again need a sort (after a crash).
    let documents = snapshot.documents.filter((document) => trusted.has(document.keyId));
    if (scanned.length > 0) documents = sortOldestFirst([...documents, ...scanned]);
    if (report.scannedFolders > 0 || folders.size !== snapshot.folders.size) await writeDocumentsSnapshot(this.root, folders, documents, this.sync);
    const found: StoredDocument[] = [];
    const byKey = new Map<string, StoredDocument[]>();
    for (const document of documents) {
      if (document.state === 'expired') {
        this.tombstones.set(document.id, document);
        continue;
      }
      found.push(document);
      this.byId.set(document.id, document);
      const list = byKey.get(document.keyId);
      if (list) list.push(document);
      else byKey.set(document.keyId, [document]);
    }
    this.all.load(found);
    for (const [keyId, list] of byKey) {
      const index = new NewestFirstIndex<StoredDocument>();
      index.load(list);
      this.byKey.set(keyId, index);
    }
    report.documents = found.length;
    report.tombstones = this.tombstones.size;
    return report;
  }

  /**
   * Records the index snapshot from memory, for a fast next start. Only when nothing is being
   * written (shutdown, after the batch queue and the sweeper stopped): each folder's mtime is
   * taken before the records are read from memory.
   */
  async saveSnapshot(): Promise<void> {
    const folders = new Map<string, FolderStamp>();
    for (const keyId of await readdir(this.root)) {
      if (!isId(keyId)) continue;
      const info = await stat(path.join(this.root, keyId), { bigint: true }).catch(() => undefined);
      if (info?.isDirectory()) folders.set(keyId, { mtimeNs: String(info.mtimeNs), statMs: Date.now() });
    }
    const documents = sortOldestFirst([...this.all.all(), ...this.tombstones.values()]);
    await writeDocumentsSnapshot(this.root, folders, documents, this.sync);
  }
}

function withTimes(record: DocumentRecord): StoredDocument {
  return { ...record, createdMs: Date.parse(record.createdAt), expiresMs: Date.parse(record.expiresAt) };
}

function sortOldestFirst(documents: StoredDocument[]): StoredDocument[] {
  return documents.sort((a, b) => a.createdMs - b.createdMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function toRecord(document: StoredDocument): DocumentRecord {
  const { createdMs: _created, expiresMs: _expires, ...record } = document;
  return record;
}
