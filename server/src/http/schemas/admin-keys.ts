// Wire schemas of the admin key and plan endpoints (docs/api.md#keys-and-plans).

import { z } from 'zod';
import { nextCursorSchema } from './paging.ts';

const name = z.string().min(1).max(100).describe('A label for the key, e.g. the customer or the app using it.');
const plan = z.string().min(1).max(32).describe('Plan id, one of GET /admin/v1/plans.');
const autoStore = z.boolean().describe('Store every rendered document without the per-call store flag (when the plan keeps documents).');

const receipts = z
  .enum(['stored', 'all', 'off'])
  .describe(
    'Which renders keep a receipt (GET /v1/receipts/{id}): stored (default: renders that keep a document, and any that asks with options.receipt), ' +
      'all (every render), off (only those that ask).',
  );

export const createKeyBodySchema = z.strictObject({ name, plan, auto_store: autoStore.optional(), receipts: receipts.optional() });

export const updateKeyBodySchema = z
  .strictObject({ name: name.optional(), plan: plan.optional(), auto_store: autoStore.optional(), receipts: receipts.optional() })
  .refine((body) => Object.keys(body).length > 0, { message: 'must name at least one of name, plan, auto_store, receipts' });

const keyFields = {
  id: z.string().describe('Key id (key_...); not secret.'),
  name: z.string(),
  plan: z.string(),
  auto_store: z.boolean(),
  receipts,
  created_at: z.string().describe('ISO 8601'),
};

export const usageSchema = z.object({
  month: z.string().describe('Calendar month, UTC: YYYY-MM.'),
  used: z.int().nullable().describe('Documents rendered this month; null when this key’s usage file is damaged.'),
  limit: z.int().describe('Monthly allowance of the plan.'),
});

export const issuedKeySchema = z.object({ ...keyFields, key: z.string().describe('The API key, sk_live_...: shown only in this response.') });
export const keyWithUsageSchema = z.object({ ...keyFields, usage: usageSchema });
export const keyListSchema = z.object({ data: z.array(keyWithUsageSchema), next_cursor: nextCursorSchema });

export const planSchema = z.object({
  id: z.string(),
  name: z.string(),
  monthly_documents: z.int(),
  retention: z.union([z.literal(0), z.string()]).describe('0 (documents not kept) or a number with s, m (minutes), h, d or y (365 days).'),
  batch_max_items: z.int().describe('0: no batch on this plan.'),
  concurrency: z.int().describe('Renders one key of this plan may have in flight; more wait in the key’s own queue, served round-robin across keys.'),
});
export const planListSchema = z.object({ data: z.array(planSchema) });
