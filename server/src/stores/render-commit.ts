// The unit of work that ends a successful render: its stored copy (if any) and its charge are
// committed together, so no document exists uncharged and no charge exists for a document that
// was not kept. PostgreSQL does it in one transaction (stores/pg/render-commit.ts), so a crash
// leaves both or neither and needs no tag. The files cannot write two files atomically, so they
// order the writes and leave a charge tag on file to settle what a crash interrupted:
// - a stored render outside a batch is charged first with the tag "doc:<id>", then stored, then
//   the tag is dropped; a crash in between leaves the tag, which the meter settles at its next
//   load (documentChargeResolver): kept if the document exists, refunded if not;
// - a batch item's document is written first and counted second with the item's tag; the batch
//   queue settles a crash between the two (services/batches/items.ts).

import type { ChargeResolver, Reservation, UsageMeter, UsageSnapshot } from '../accounts/usage.ts';
import type { DocumentStore } from './document-store.ts';
import type { DocumentRecord, StoredDocument } from './document-record.ts';

export interface RenderCommitInput {
  reservation: Reservation;
  /** Further documents of the allowance counted with this one (a merge costs one per source); default none. */
  also?: readonly Reservation[];
  /** The copy to keep (store: true, auto_store, a batch item). */
  document?: { record: DocumentRecord; pdf: Uint8Array };
  /** A batch item's charge tag, written with the count. */
  chargeTag?: string;
  /**
   * The batch item this render is. PostgreSQL marks it succeeded in the same transaction, and only
   * while this instance holds the batch's lease (else LeaseLostError, and nothing is kept or
   * counted). The files write the item's state afterwards (services/batches/items.ts).
   */
  batchItem?: { batchId: string; index: number };
}

export interface RenderCommit {
  /** Keeps the document and counts the render, both or neither; a failure leaves the reservation released. */
  commit(input: RenderCommitInput): Promise<{ usage: UsageSnapshot; document?: StoredDocument }>;
}

/** The files' commit: ordered writes with charge tags (see the top of this file). */
export function fileRenderCommit(documents: DocumentStore, meter: UsageMeter): RenderCommit {
  return {
    async commit({ reservation, also = [], document, chargeTag }) {
      const holds = [reservation, ...also];
      if (document && chargeTag === undefined) return chargeThenStore(documents, meter, holds, document);
      let stored: StoredDocument | undefined;
      if (document) {
        try {
          stored = await documents.put(document.record, document.pdf);
        } catch (error) {
          await Promise.all(holds.map((hold) => hold.release()));
          throw error;
        }
      }
      try {
        // The meter's group commit writes holds committed together in one write.
        return { usage: latest(await Promise.all(holds.map((hold, at) => hold.commit(at === 0 ? chargeTag : undefined)))), document: stored };
      } catch (error) {
        if (stored) await documents.remove(stored.id);
        throw error;
      }
    },
  };
}

/** A stored render outside a batch: charged (each hold tagged), stored, tags dropped. */
async function chargeThenStore(
  documents: DocumentStore,
  meter: UsageMeter,
  holds: readonly Reservation[],
  document: { record: DocumentRecord; pdf: Uint8Array },
) {
  const { keyId, id } = document.record;
  const tags = holds.map((_, at) => documentChargeTag(id, at));
  const results = await Promise.allSettled(holds.map((hold, at) => hold.commit(tags[at])));
  const charged = results.flatMap((result, at) => (result.status === 'fulfilled' ? [{ tag: tags[at]!, usage: result.value }] : []));
  let stored: StoredDocument | undefined;
  try {
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    stored = await documents.put(document.record, document.pdf);
  } catch (error) {
    for (const { tag, usage } of charged) await meter.refund(keyId, usage.month, tag).catch(() => undefined);
    throw error;
  }
  await meter.settleCharges(keyId, tags);
  return { usage: latest(charged.map((entry) => entry.usage)), document: stored };
}

/** The usage after the last of several commits (the highest count). */
function latest(usages: readonly UsageSnapshot[]): UsageSnapshot {
  return usages.reduce((last, next) => (next.used > last.used ? next : last));
}

/** The charge tag of a stored render's document (files only; see chargeThenStore); `#n` for each further hold of a merge. */
export function documentChargeTag(documentId: string, hold = 0): string {
  return hold === 0 ? `doc:${documentId}` : `doc:${documentId}#${hold}`;
}

/** Settles "doc:<id>" tags a crash left open: charged if the document exists (or expired since), refunded if not. */
export function documentChargeResolver(documents: Pick<DocumentStore, 'get' | 'tombstone'>): ChargeResolver {
  return async (tag) => {
    if (!tag.startsWith('doc:')) return undefined;
    const id = tag.slice(4).split('#')[0]!;
    return (await documents.get(id)) || (await documents.tombstone(id)) ? 'charged' : 'refund';
  };
}
