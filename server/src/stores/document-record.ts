// A stored document's record, the same in every document store (files, PostgreSQL) and in the
// documents index snapshot: everything known about a document but its bytes.

/**
 * What made the document (docs/api.md#stored-documents): a render (HTML, URL, template or Markdown
 * through Chromium), a batch item (whatever it made), an office conversion, a merge, a PDF transform.
 */
export const DOCUMENT_SOURCES = ['render', 'batch', 'office', 'merge', 'transform'] as const;
export type DocumentSource = (typeof DOCUMENT_SOURCES)[number];

/**
 * A stored source as this version reads it: a record without one, or with a value it does not know
 * (a newer version's, after a downgrade), reads as render, what every stored document was at first.
 */
export function documentSourceOf(value: unknown): DocumentSource {
  return DOCUMENT_SOURCES.includes(value as DocumentSource) ? (value as DocumentSource) : 'render';
}

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
