// POST /v1/pdf/batch and GET /v1/pdf/batch/{batch_id} (docs/api.md#batches), and the wire form
// of a batch that the admin views and the webhook payload share.
// Its operation({...}) entries look alike by design, one declaration per endpoint (docs/duplicates.md).

import { operation } from '../operation.ts';
import { accountOf } from '../middleware/auth.ts';
import { USAGE_HEADER_DOCS, usageHeaders } from '../../wire/usage-headers.ts';
import { batchRequestSchema, batchSchema } from '../schemas/batches.ts';
import type { BatchesService } from '../../services/batches/batches.ts';
import { batchJson } from '../../wire/batch-json.ts';

const TAG = 'Batch';

export function batchOperations(batches: BatchesService) {
  return [
    operation({
      method: 'post',
      path: '/v1/pdf/batch',
      summary: 'Render many documents in one call',
      description:
        'Each item is a render request (html, url or template_id with data; options; filename); the shared options apply to every item and an item’s ' +
        'own options override them field by field. The whole call is validated first: a bad field anywhere is a 400 naming it (requests[3].options.scale ...). ' +
        'Every item is stored (source batch, with batch_id) and costs one document of the month when it succeeds; a failed item costs nothing and ' +
        'carries the code a single render would have answered (items past the monthly allowance fail with quota_exceeded). Up to 10 items without ' +
        'async are rendered in the call: 200 with every result, also when some failed. More than 10, or async: true: 202 with the batch queued and ' +
        'Location; rendered in the background (durably: a restart finishes it), sharing the renderer with interactive calls, which go first. ' +
        'With webhook_url, a batch.completed event is POSTed when it completes (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature; ' +
        'body {type, timestamp, data: the batch as GET answers it}), retried with backoff on a non-2xx answer, never following redirects. ' +
        'Background batches not yet completed are capped per key (BATCH_QUEUE_ITEMS_PER_KEY items, default 1000; BATCH_QUEUE_BYTES_PER_KEY bytes of ' +
        'stored requests, default 64 MiB): a batch past either is 429 too_many_batches; past the server’s totals (BATCH_QUEUE_ITEMS, BATCH_QUEUE_BYTES) ' +
        'it is 503 renderer_busy; both with Retry-After. Bodies nested deeper than 128 levels are 400 invalid_request.',
      tag: TAG,
      auth: 'api_key',
      body: batchRequestSchema,
      responses: {
        200: { description: 'Rendered in the call: status completed, one result per item.', body: batchSchema, headers: USAGE_HEADER_DOCS },
        202: {
          description: 'Accepted for the background: status queued, every result queued.',
          body: batchSchema,
          headers: { ...USAGE_HEADER_DOCS, Location: '/v1/pdf/batch/{batch_id}' },
        },
      },
      errors: [
        'invalid_json',
        'invalid_request',
        'conflicting_source',
        'url_blocked',
        'unauthorized',
        'plan_required',
        'forbidden',
        'payload_too_large',
        'storage_unavailable',
        'batch_too_large',
        'too_many_batches',
        'renderer_busy',
      ],
      handler: async ({ body }, _req, res) => {
        const created = await batches.create(body, accountOf(res));
        res.set(usageHeaders(created.usage));
        if (!created.inCall) res.status(202).location(`/v1/pdf/batch/${created.batch.id}`);
        res.json(batchJson(created.batch));
        created.afterResponse();
      },
    }),
    operation({
      method: 'get',
      path: '/v1/pdf/batch/:batch_id',
      summary: 'Fetch a batch and its per-item results',
      description: 'The same shape for in-call and background batches. Another key’s batch, like an unknown one, is 404 batch_not_found.',
      tag: TAG,
      auth: 'api_key',
      responses: { 200: { description: 'The batch.', body: batchSchema } },
      errors: ['unauthorized', 'batch_not_found'],
      handler: async ({ params }, _req, res) => {
        res.json(batchJson(await batches.get(accountOf(res).keyId, params.batch_id!)));
      },
    }),
  ];
}
