// Where the bytes of stored PDFs live when a database holds the documents' records: an
// interface with one implementation today, PostgreSQL itself (stores/pg/pdf-blobs.ts), and room
// for an S3-compatible object store (docs/operations.md#several-instances-postgresql). The files store keeps
// its bytes beside its sidecars and does not use this.

import type { Readable } from 'node:stream';

/** An opened PDF: read once as a stream, then closed (also when the stream was not read). */
export interface PdfReader {
  createReadStream(): Readable;
  close(): Promise<void>;
}

/**
 * The bytes of stored documents by document id. `put` and `remove` take the caller's
 * transaction where the implementation can join it (PostgreSQL); an object store ignores it
 * and the document row stays the commit point (bytes without a row are swept as orphans).
 */
export interface PdfBlobStore<Transaction = unknown> {
  put(id: string, pdf: Uint8Array, transaction?: Transaction): Promise<void>;
  /** The bytes as they were when opened (a delete meanwhile does not cut the stream short); undefined when absent. */
  open(id: string): Promise<PdfReader | undefined>;
  remove(id: string, transaction?: Transaction): Promise<void>;
}
