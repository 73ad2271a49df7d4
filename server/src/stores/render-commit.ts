// The unit of work that ends a successful render: its stored copy (if any) and its charge are
// committed together, so no document exists uncharged and no charge exists for a document that
// was not kept. PostgreSQL does it in one transaction (stores/pg/render-commit.ts), so a crash
// leaves both or neither and needs no tag. The files cannot write two files atomically, so they
// order the writes and leave a charge tag on file to settle what a crash interrupted:
// - a stored render outside a batch is charged first with the tag "doc:<id>", then stored, then
//   the tag is dropped; a crash in between leaves the tag, which the meter settles at its next
//   load (documentChargeResolver): kept if the document exists, refunded if not;
// - a batch item's document is written first and counted second with the item's tag; the batch
//   queue settles a crash between the two (services/batch-items.ts).

import type { ChargeResolver, Reservation, UsageMeter, UsageSnapshot } from '../accounts/usage.ts';
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

/** The files' commit: ordered writes with charge tags (see the top of this file). */
export function fileRenderCommit(documents: DocumentStore, meter: UsageMeter): RenderCommit {
  return {
    async commit({ reservation, document, chargeTag }) {
      if (document && chargeTag === undefined) return chargeThenStore(documents, meter, reservation, document);
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

/** A stored render outside a batch: charged (tagged), stored, tag dropped. */
async function chargeThenStore(documents: DocumentStore, meter: UsageMeter, reservation: Reservation, document: { record: DocumentRecord; pdf: Uint8Array }) {
  const { keyId, id } = document.record;
  const tag = documentChargeTag(id);
  const usage = await reservation.commit(tag);
  let stored: StoredDocument;
  try {
    stored = await documents.put(document.record, document.pdf);
  } catch (error) {
    await meter.refund(keyId, usage.month, tag).catch(() => undefined);
    throw error;
  }
  await meter.settleCharges(keyId, [tag]);
  return { usage, document: stored };
}

/** The charge tag of a stored render's document (files only; see chargeThenStore). */
export function documentChargeTag(documentId: string): string {
  return `doc:${documentId}`;
}

/** Settles "doc:<id>" tags a crash left open: charged if the document exists (or expired since), refunded if not. */
export function documentChargeResolver(documents: Pick<DocumentStore, 'get' | 'tombstone'>): ChargeResolver {
  return async (tag) => {
    if (!tag.startsWith('doc:')) return undefined;
    const id = tag.slice(4);
    return (await documents.get(id)) || (await documents.tombstone(id)) ? 'charged' : 'refund';
  };
}
