// Wire schemas of the batch endpoints (docs/api.md#batches). The whole call is validated before
// anything runs: each item's fields, then each item's options merged field by field over the
// shared options and checked complete (bounds, defaults, margins that fit the sheet), so a bad
// field anywhere is one 400 naming it ("requests[3].options.scale must be ...").

import { z } from 'zod';
import { pdfOptionsSchema, type PdfOptions } from '../../render/pdf-options.ts';
import { isUsableSecret } from '../../queue/webhook-delivery.ts';
import type { BatchInput } from '../../services/batches/admission.ts';
import { refuseMisplacedOptions, renderFields, requestOptionsSchema } from './render.ts';
import { isWellFormedText } from '../content-disposition.ts';
import { nextCursorSchema } from './paging.ts';
import { officeSourceSchema } from './office.ts';
import { transformItemSchema } from './transform.ts';

/** Hard ceiling of items per call, whatever a plans file says (plans allow up to 10,000). */
const MAX_ITEMS = 10_000;

// PdfOptions with nothing filled in: the shared and per-item options are merged before defaults apply.
const optionsShape = Object.fromEntries(
  Object.entries(pdfOptionsSchema.shape).map(([name, schema]) => [name, (schema instanceof z.ZodDefault ? schema.unwrap() : schema).optional()]),
) as unknown as { [K in keyof typeof pdfOptionsSchema.shape]: z.ZodOptional<z.ZodType<PdfOptions[K]>> };
const partialOptionsSchema = z.strictObject(optionsShape).describe('PdfOptions; any field may be left out.');

const batchItemSchema = z
  .strictObject({
    html: renderFields.html.optional(),
    url: renderFields.url
      .describe('Public http(s) URL to render, checked by the network guard when the item renders: a blocked one fails that item with url_blocked.')
      .optional(),
    markdown: renderFields.markdown.optional(),
    template_id: renderFields.template_id.optional(),
    template_version: renderFields.template_version.optional(),
    data: renderFields.data.optional(),
    office: officeSourceSchema.optional(),
    transform: transformItemSchema.optional(),
    options: partialOptionsSchema
      .optional()
      .describe('Overrides the shared options field by field (renders only: an office item has office.options, a transform item transform.options).'),
    filename: renderFields.filename.optional(),
    store: z.literal(true).optional().describe('Every batch item is stored; true is accepted, false is not.'),
  })
  .describe('A render request: exactly one of html, url, markdown, template_id, office or transform.');

export const batchRequestSchema = z
  .strictObject({
    requests: z.array(batchItemSchema).min(1).max(MAX_ITEMS).describe('The items; at most the plan’s batch_max_items.'),
    options: partialOptionsSchema.optional().describe('Shared options for every item; an item’s own options override them field by field.'),
    async: z.boolean().optional().describe('true: render in the background (202) even with 10 items or fewer.'),
    webhook_url: z
      .string()
      .min(1)
      .max(2048)
      .optional()
      .describe('Notified with a signed POST (Standard Webhooks) when the batch completes; checked by the network guard now and at delivery.'),
    webhook_secret: z
      .string()
      .min(16)
      .max(256)
      .refine(isUsableSecret, { message: 'starts with whsec_ but what follows is not base64' })
      .refine(isWellFormedText, { message: 'must be well-formed Unicode (its UTF-8 bytes are the signing key)' })
      .optional()
      .describe('16 to 256 characters. whsec_<base64>: the decoded bytes sign; any other: its UTF-8 bytes.'),
  })
  .superRefine((body, ctx) => {
    if (body.webhook_secret !== undefined && body.webhook_url === undefined) {
      ctx.addIssue({ code: 'custom', path: ['webhook_secret'], message: 'is only used with webhook_url' });
    }
    for (const [index, item] of body.requests.entries()) {
      const own = item.office !== undefined ? 'an office item takes office.options' : 'a transform item takes transform.options';
      if ((item.office !== undefined || item.transform !== undefined) && item.options !== undefined)
        ctx.addIssue({ code: 'custom', path: ['requests', index, 'options'], message: `is for renders: ${own}`, input: undefined });
      const other = (['html', 'url', 'markdown', 'template_id', 'office'] as const).find((field) => item[field] !== undefined);
      if (item.transform !== undefined && other)
        ctx.addIssue({ code: 'custom', path: ['requests', index, 'transform'], message: `is a source of its own: leave ${other} out`, input: undefined });
      const merged = requestOptionsSchema.safeParse({ ...body.options, ...item.options }, { reportInput: true });
      if (merged.success) {
        refuseMisplacedOptions({ url: item.url, html: item.html, options: merged.data }, ctx, ['requests', index]);
        continue;
      }
      const issue = merged.error.issues[0]!;
      ctx.addIssue({ ...issue, path: ['requests', index, 'options', ...issue.path] } as z.core.$ZodRawIssue);
    }
  })
  .transform(
    (body): BatchInput => ({
      requests: body.requests.map(({ options, store: _store, ...item }) => ({ ...item, options: requestOptionsSchema.parse({ ...body.options, ...options }) })),
      async: body.async,
      webhook_url: body.webhook_url,
      webhook_secret: body.webhook_secret,
    }),
  );

const errorRecordSchema = z.object({ code: z.string(), detail: z.string() });

export const batchResultSchema = z.object({
  index: z.int(),
  status: z.enum(['queued', 'rendering', 'succeeded', 'failed']),
  document_id: z.string().optional().describe('doc_...: the stored PDF, once succeeded.'),
  filename: z.string().optional(),
  error: errorRecordSchema.optional().describe('Why the item failed: the code and detail a single render would have answered.'),
});

export const batchSchema = z.object({
  batch_id: z.string().describe('bat_...'),
  status: z.enum(['queued', 'processing', 'completed']).describe('queued -> processing -> completed (every item ended; some may have failed).'),
  total: z.int(),
  succeeded: z.int(),
  failed: z.int(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  results: z.array(batchResultSchema),
});

export const webhookAttemptSchema = z.object({
  attempt: z.int(),
  at: z.string(),
  status_code: z.int().nullable().describe('The receiver’s HTTP status; null when it did not answer.'),
  ok: z.boolean(),
  error: errorRecordSchema.nullable(),
  duration_ms: z.int(),
  next_attempt_at: z.string().nullable(),
});

const adminFields = {
  key_id: z.string(),
  webhook_url: z.string().nullable(),
  webhook_status: z.enum(['waiting', 'pending', 'delivered', 'failed']).nullable().describe('waiting: the batch has not completed; pending: a try is due.'),
};

export const adminBatchSummarySchema = batchSchema.omit({ results: true }).extend(adminFields);
export const adminBatchListSchema = z.object({ data: z.array(adminBatchSummarySchema), next_cursor: nextCursorSchema });
export const adminBatchSchema = batchSchema.extend({ ...adminFields, deliveries: z.array(webhookAttemptSchema).describe('Every webhook try, oldest first.') });
