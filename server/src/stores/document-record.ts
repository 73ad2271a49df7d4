// A stored document's record, the same in every document store (files, PostgreSQL) and in the
// documents index snapshot: everything known about a document but its bytes.

/** How the document came to be stored: a render call, or a batch item. */
export type DocumentSource = 'render' | 'batch';

/** The sidecar: everything known about a document but its bytes. */
export interface DocumentRecord {
  id: string;
  keyId: string;
  filename: string | null;
  /** Bytes of the PDF. */
  size: number;
  /** Its page count; absent for documents kept before it was recorded, or when the quick count could not read the file. */
  pages?: number;
  createdAt: string;
  /** Fixed when stored, from the plan's retention then; a later plan change does not move it. */
  expiresAt: string;
  source: DocumentSource;
  batchId: string | null;
  /** Plan and retention the document was stored under, for the record. */
  planId: string;
  retention: string;
  state: 'stored' | 'expired';
  /** When the bytes were deleted (state expired). */
  expiredAt: string | null;
}

export interface StoredDocument extends DocumentRecord {
  readonly createdMs: number;
  readonly expiresMs: number;
}
