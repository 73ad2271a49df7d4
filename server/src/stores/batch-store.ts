// The contract every batch store keeps (BatchStore) and the records it keeps: FileBatchStore
// (files under DATA_DIR, batches.ts) and PgBatchStore (pg/batches.ts). Its own module so the
// services, the queue, the wire and both implementations name the contract without importing
// the file store's disk code.

import type { BacklogLimits } from './batch-backlog.ts';
import type { Page } from './newest-first-index.ts';

export type BatchStatus = 'queued' | 'processing' | 'completed';
export type BatchItemStatus = 'queued' | 'rendering' | 'succeeded' | 'failed';
export type WebhookStatus = 'waiting' | 'pending' | 'delivered' | 'failed';

export interface ErrorRecord {
  code: string;
  detail: string;
}

/** One item's request as the services gave it (services/render/request.ts): kept as JSON, never read here. */
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
  /** The receipt of the item's last render, when one was kept (services/accounts/receipts.ts). */
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
