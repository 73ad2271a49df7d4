// A render's unit of work in PostgreSQL (stores/render-commit.ts): the document row, its bytes,
// the usage count, the charge tag and (a batch item) the item's success, in one transaction.

import type pg from 'pg';
import type { UsageSnapshot } from '../../accounts/usage.ts';
import type { RenderCommit } from '../render-commit.ts';
import { inTransaction } from './transaction.ts';
import type { PgBatchStore } from './batches.ts';
import type { PgDocumentStore } from './documents.ts';
import type { PgUsageLedger } from './usage-ledger.ts';

export function pgRenderCommit(pool: pg.Pool, documents: PgDocumentStore, ledger: PgUsageLedger, batches: PgBatchStore): RenderCommit {
  return {
    async commit({ reservation, also = [], document, chargeTag, batchItem }) {
      const holds = [reservation, ...also];
      try {
        const usage = await inTransaction(pool, async (client) => {
          // First: an instance that lost the batch's lease (presumed dead, only slow) keeps and counts nothing.
          if (batchItem) await batches.markSucceededWithin(client, batchItem.batchId, batchItem.index);
          if (document) await documents.insert(client, document.record, document.pdf);
          let last: UsageSnapshot | undefined;
          for (const [at, hold] of holds.entries()) last = await ledger.commitWithin(client, hold, at === 0 ? chargeTag : undefined);
          return last!;
        });
        for (const hold of holds) ledger.settled(hold);
        return {
          usage,
          document: document && { ...document.record, createdMs: Date.parse(document.record.createdAt), expiresMs: Date.parse(document.record.expiresAt) },
        };
      } catch (error) {
        await Promise.all(holds.map((hold) => hold.release()));
        throw error;
      }
    },
  };
}
