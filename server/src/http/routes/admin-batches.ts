// The admin's view of batches across keys (docs/api.md#documents-templates-and-batches-of-every-key): the /v1 shape plus
// key_id and the webhook (its url and every delivery try; never its secret), the same paging as
// documents, an optional key_id filter.
// Its operation({...}) entries look alike by design, one declaration per endpoint (docs/duplicates.md).

import { operation } from '../operation.ts';
import { adminBatchListSchema, adminBatchSchema } from '../schemas/batches.ts';
import { adminListQuerySchema, DEFAULT_PAGE_SIZE } from '../schemas/paging.ts';
import type { BatchesService } from '../../services/batches/batches.ts';
import type { BatchRecord } from '../../stores/batch-store.ts';
import { batchJson } from '../../wire/batch-json.ts';

const TAG = 'Admin: batches and events';

export function adminBatchOperations(batches: BatchesService) {
  return [
    operation({
      method: 'get',
      path: '/admin/v1/batches',
      summary: 'List batches of every key',
      description: 'Newest first, without the per-item results (fetch a batch for those); key_id keeps one key’s.',
      tag: TAG,
      auth: 'admin',
      query: adminListQuerySchema,
      responses: { 200: { description: 'One page of batches.', body: adminBatchListSchema } },
      errors: ['invalid_request', 'unauthorized'],
      handler: async ({ query }, _req, res) => {
        const page = await batches.list(query.key_id, query.limit ?? DEFAULT_PAGE_SIZE, query.cursor);
        res.json({ data: page.items.map(adminSummaryJson), next_cursor: page.nextCursor });
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/batches/:batch_id',
      summary: 'Fetch any batch with its webhook delivery tries',
      tag: TAG,
      auth: 'admin',
      responses: { 200: { description: 'The batch, its results and every webhook delivery try.', body: adminBatchSchema } },
      errors: ['unauthorized', 'batch_not_found'],
      handler: async ({ params }, _req, res) => {
        const batch = await batches.get(undefined, params.batch_id!);
        res.json({
          ...batchJson(batch),
          ...adminFields(batch),
          deliveries: (batch.webhook?.attempts ?? []).map((attempt) => ({
            attempt: attempt.attempt,
            at: attempt.at,
            status_code: attempt.statusCode,
            ok: attempt.ok,
            error: attempt.error,
            duration_ms: attempt.durationMs,
            next_attempt_at: attempt.nextAttemptAt,
          })),
        });
      },
    }),
  ];
}

function adminFields(batch: BatchRecord) {
  return { key_id: batch.keyId, webhook_url: batch.webhook?.url ?? null, webhook_status: batch.webhook?.status ?? null };
}

function adminSummaryJson(batch: BatchRecord) {
  const { results: _results, ...summary } = batchJson(batch);
  return { ...summary, ...adminFields(batch) };
}
