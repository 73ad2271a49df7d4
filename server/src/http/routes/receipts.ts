// Render receipts (docs/api.md#render-receipts): the owning key reads its own, the admin any, and
// a playground render's receipt is read with its id alone (only the page that made the render was
// told it). Also the Activity screen's numbers (GET /admin/v1/activity). The receipt is JSON as
// services/accounts/receipt-body.ts builds it; 404 receipt_not_found for anything else, another key's included.
// Its operation({...}) entries look alike by design, one declaration per endpoint (docs/duplicates.md).

import type { Response } from 'express';
import { z } from 'zod';
import { operation } from '../operation.ts';
import { accountOf } from '../middleware/auth.ts';
import { receiptPath, type ReceiptsService } from '../../services/accounts/receipts.ts';
import type { ActivityService } from '../../services/accounts/activity.ts';
import type { ReceiptKind } from '../../services/accounts/receipt-body.ts';

const receiptSchema = z
  .looseObject({
    receipt_version: z.literal(1),
    id: z.string(),
    request_id: z.string().nullable(),
    key_id: z.string().nullable(),
    kind: z.enum(['pdf', 'image', 'merge', 'merge_source', 'office', 'batch_item', 'playground', 'transform']),
    status: z.enum(['succeeded', 'failed']),
  })
  .describe('A render receipt; every field is described in docs/api.md#render-receipts.');

export const RECEIPT_HEADER = 'X-Render-Receipt';
export const RECEIPT_HEADER_DOCS = {
  [RECEIPT_HEADER]:
    'Where the render’s receipt can be read (/v1/receipts/{id}), when one was kept (options.receipt, or the key’s receipts setting); ' +
    'a merge names one per rendered source, comma-separated. Error answers of a render that kept one carry it too.',
};

/** Sets X-Render-Receipt when the render kept receipts. */
export function setReceiptHeader(res: Response, ids: string[] | undefined, kind?: ReceiptKind): void {
  if (ids && ids.length > 0) res.setHeader(RECEIPT_HEADER, ids.map((id) => receiptPath(id, kind)).join(', '));
}

export function receiptOperations(receipts: ReceiptsService, activity: ActivityService, playgroundEnabled: boolean) {
  const params = { description: 'The receipt (JSON).', body: receiptSchema };
  return [
    operation({
      method: 'get',
      path: '/v1/receipts/:receipt_id',
      summary: 'Read a render receipt',
      description:
        'What a render of the calling key did: options in force, render path, timings, every request the page made and which the ' +
        'network guard refused (with why), console errors, fonts in the PDF, pages, warnings. Kept as long as the render’s document, or ' +
        'RECEIPT_RETENTION_HOURS (default 24) when nothing was stored. Another key’s receipt, an expired or unknown one: 404.',
      tag: 'Receipts',
      auth: 'api_key',
      responses: { 200: params },
      errors: ['unauthorized', 'receipt_not_found'],
      handler: async ({ params }, _req, res) => {
        res.json(await receipts.get(params.receipt_id!, accountOf(res).keyId));
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/receipts/:receipt_id',
      summary: 'Read any render receipt (admin)',
      description: 'Any key’s receipt, and the playground’s, as GET /v1/receipts/{id} shows it.',
      tag: 'Admin: activity',
      auth: 'admin',
      responses: { 200: params },
      errors: ['unauthorized', 'receipt_not_found'],
      handler: async ({ params }, _req, res) => {
        res.json(await receipts.getForAdmin(params.receipt_id!));
      },
    }),
    operation({
      method: 'get',
      path: '/v1/playground/receipts/:receipt_id',
      summary: 'Read a playground render’s receipt',
      description:
        'No key: the receipt of a playground render that asked for one (options.receipt), named by the X-Render-Receipt header of its ' +
        'answer; its id (about 95 random bits) is the only way to it. Receipts of keyed renders are never answered here (404).',
      tag: 'Playground',
      auth: 'none',
      responses: { 200: params },
      errors: ['receipt_not_found', 'not_found'],
      handler: async ({ params }, _req, res) => {
        if (!playgroundEnabled) return void res.status(404).json({ detail: 'The playground is switched off on this server.', code: 'not_found' });
        res.json(await receipts.getForPlayground(params.receipt_id!));
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/activity',
      summary: 'The last hour of renders, minute by minute, and the most recent ones (the Activity screen)',
      description:
        'minutes: 60 entries, oldest first (renders, succeeded, failed, by_code, p50_ms, p95_ms, queued, slots_busy, browser_restarts); ' +
        'recent: up to 200 renders, newest first (at, instance, key_id, kind, source, status, code, pages, ms, receipt_id); instances: each ' +
        'instance’s latest renderer state. Gathered in memory from the event stream since this instance started (on PostgreSQL, every ' +
        'instance’s renders). The live updates are the render.completed and instance.stats events of GET /admin/v1/events.',
      tag: 'Admin: activity',
      auth: 'admin',
      responses: {
        200: { description: 'The activity.', body: z.looseObject({ now: z.string(), minutes: z.array(z.unknown()), recent: z.array(z.unknown()) }) },
      },
      errors: ['unauthorized'],
      handler: (_input, _req, res) => {
        res.json(activity.snapshot());
      },
    }),
  ];
}
