// The tools that read what the key has: list_templates, get_template (with the placeholders its
// text uses), list_documents and get_receipt. None is charged.

import { z } from 'zod';
import { listQuerySchema } from '../http/schemas/paging.ts';
import { renderFields } from '../http/schemas/render.ts';
import { placeholdersOf } from './placeholders.ts';
import { jsonResult } from './results.ts';
import { segment, type ToolArgs, type ToolSpec } from './tool-spec.ts';

const pageSchema = z.strictObject({
  limit: z.int().min(1).max(100).optional().describe('Items per page, 1 to 100 (default 20).'),
  cursor: listQuerySchema.shape.cursor,
});

/** ?limit=&cursor= of a page tool's arguments. */
function pageQuery(args: ToolArgs): string {
  const query = new URLSearchParams();
  if (args.limit !== undefined) query.set('limit', String(args.limit));
  if (args.cursor !== undefined) query.set('cursor', String(args.cursor));
  return query.size ? `?${query}` : '';
}

/** A receipt id, or the path X-Render-Receipt names (/v1/receipts/rcp_...). */
const receiptIdOf = (value: unknown) => String(value ?? '').replace(/^.*\//, '');

export const readTools: ToolSpec[] = [
  {
    name: 'list_templates',
    title: 'List templates',
    description: 'The key’s stored templates, newest first, one page at a time (GET /v1/templates). Not charged.',
    input: pageSchema,
    readOnly: true,
    call: async (args, { api }) => jsonResult(await api('GET', `/v1/templates${pageQuery(args)}`)),
  },
  {
    name: 'get_template',
    title: 'Get a template',
    description:
      'One stored template of the key: its text, format, sample data, and the placeholders its text uses (values, sections over lists, ' +
      'inverted sections), so data can be built for render_template (GET /v1/templates/{id}). Not charged.',
    input: z.strictObject({ template_id: renderFields.template_id }),
    readOnly: true,
    call: async (args, { api }) =>
      jsonResult(await api('GET', `/v1/templates/${segment(args.template_id)}`), (template) => ({
        ...template,
        placeholders: placeholdersOf(String(template.html ?? '')),
      })),
  },
  {
    name: 'list_documents',
    title: 'List stored documents',
    description:
      'The key’s stored documents (id, filename, size, pages, expiry), newest first (GET /v1/documents). Read one as the resource quire://documents/{id}. Not charged.',
    input: pageSchema,
    readOnly: true,
    call: async (args, { api }) => jsonResult(await api('GET', `/v1/documents${pageQuery(args)}`)),
  },
  {
    name: 'get_receipt',
    title: 'Get a render receipt',
    description:
      'What a render of this key did (GET /v1/receipts/{id}): options in force, timings, every request the page made and which the network ' +
      'guard refused, console errors, fonts, pages, warnings. The id is in a render result’s "receipt" fact. Not charged.',
    input: z.strictObject({ receipt_id: z.string().min(1).max(200).describe('rcp_..., or the /v1/receipts/rcp_... path a render result names.') }),
    readOnly: true,
    call: async (args, { api }) => jsonResult(await api('GET', `/v1/receipts/${segment(receiptIdOf(args.receipt_id))}`)),
  },
];
