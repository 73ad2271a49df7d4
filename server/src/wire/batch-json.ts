// The wire forms of a batch that background work sends as well as the routes: the batch as
// GET /v1/pdf/batch/{id} answers it (also the webhook payload's data) and the counts every
// batch event of the admin stream carries.

import type { BatchEventData } from '../events.ts';
import type { BatchRecord } from '../stores/batch-store.ts';

/** The wire form of a batch: GET /v1/pdf/batch/{id}, the POST answers and the webhook's data. */
export function batchJson(batch: BatchRecord) {
  const counts = batchEventData(batch);
  return {
    batch_id: batch.id,
    status: batch.status,
    total: counts.total,
    succeeded: counts.succeeded,
    failed: counts.failed,
    created_at: batch.createdAt,
    completed_at: batch.completedAt,
    results: batch.items.map((item) => ({
      index: item.index,
      status: item.status,
      ...(item.status === 'succeeded' ? { document_id: item.documentId } : {}),
      ...(item.filename !== null ? { filename: item.filename } : {}),
      ...(item.error ? { error: { code: item.error.code, detail: item.error.detail } } : {}),
      ...(item.receiptId && (item.status === 'succeeded' || item.status === 'failed') ? { receipt: `/v1/receipts/${item.receiptId}` } : {}),
    })),
  };
}

/** Counts and status of a batch, as events and summaries carry them. */
export function batchEventData(batch: BatchRecord): BatchEventData {
  let succeeded = 0;
  let failed = 0;
  for (const item of batch.items) {
    if (item.status === 'succeeded') succeeded++;
    else if (item.status === 'failed') failed++;
  }
  return { batch_id: batch.id, key_id: batch.keyId, status: batch.status, total: batch.items.length, succeeded, failed };
}
