// The contract every documents store keeps: DocumentsStore (files under DATA_DIR, documents.ts)
// and PgDocumentStore (pg/documents.ts). Its own module so the services, the render commit and
// both implementations name the contract without importing the file store's disk code.

import type { DocumentRecord, StoredDocument } from './document-record.ts';
import type { Page } from './newest-first-index.ts';
import type { PdfReader } from './pdf-blobs.ts';

/**
 * Stored documents, wherever they are kept: DocumentsStore (files under DATA_DIR) or
 * stores/pg/documents.ts (PostgreSQL rows, bytes through a PdfBlobStore).
 */
export interface DocumentStore {
  /** Keeps the bytes and the record; the document is listed once both are durable. */
  put(record: DocumentRecord, pdf: Uint8Array): Promise<StoredDocument>;
  /** A stored (not expired) document by id, any key. */
  get(id: string): Promise<StoredDocument | undefined>;
  /** An expired document's tombstone by id. */
  tombstone(id: string): Promise<StoredDocument | undefined>;
  /** A page of stored documents expiring after `liveAtMs`, newest first: one key's, or every key's when keyId is undefined. */
  page(keyId: string | undefined, limit: number, cursor: string | undefined, liveAtMs: number): Promise<Page<StoredDocument>>;
  /** Opens a stored document's PDF; undefined when it is gone (deleted or expired meanwhile). */
  openPdf(document: StoredDocument): Promise<PdfReader | undefined>;
  /** Deletes a document and its bytes for good; false if it was not stored. */
  remove(id: string): Promise<boolean>;
  /** Retention ended: the record becomes a tombstone and the bytes are deleted; false if it was not stored (or another caller expired it). */
  expire(id: string, at: Date): Promise<boolean>;
  /** Forgets a tombstone: the id answers 404 from then on. */
  dropTombstone(id: string): Promise<void>;
  /** Stored documents whose expiry is at or before `ms`, and tombstones of documents that expired at or before `tombstoneMs`. */
  due(ms: number, tombstoneMs: number): Promise<{ expired: StoredDocument[]; tombstones: StoredDocument[] }>;
}
