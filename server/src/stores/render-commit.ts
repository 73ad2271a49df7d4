// The unit of work that ends a successful render: its stored copy (if any) and its charge are
// committed together, so no document exists uncharged and no charge exists for a document that
// was not kept. PostgreSQL does it in one transaction (stores/pg/render-commit.ts); the files
// write the document first and take it back if the count cannot be written (the batch queue's
// charge tags cover a crash between the two, services/batch-items.ts).

import type { Reservation, UsageSnapshot } from '../accounts/usage.ts';
import type { DocumentRecord, DocumentStore, StoredDocument } from './documents.ts';

export interface RenderCommitInput {
  reservation: Reservation;
  /** The copy to keep (store: true, auto_store, a batch item). */
  document?: { record: DocumentRecord; pdf: Uint8Array };
  /** A batch item's charge tag, written with the count. */
  chargeTag?: string;
}

export interface RenderCommit {
  /** Keeps the document and counts the render, both or neither; a failure leaves the reservation released. */
  commit(input: RenderCommitInput): Promise<{ usage: UsageSnapshot; document?: StoredDocument }>;
}

/** The files' commit: document first, count second, the document taken back if the count fails. */
export function fileRenderCommit(documents: DocumentStore): RenderCommit {
  return {
    async commit({ reservation, document, chargeTag }) {
      let stored: StoredDocument | undefined;
      if (document) {
        try {
          stored = await documents.put(document.record, document.pdf);
        } catch (error) {
          await reservation.release();
          throw error;
        }
      }
      try {
        return { usage: await reservation.commit(chargeTag), document: stored };
      } catch (error) {
        if (stored) await documents.remove(stored.id);
        throw error;
      }
    },
  };
}
