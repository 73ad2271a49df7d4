// Templates of the calling key (docs/api.md#templates): create (201), list, fetch, replace and
// delete. Another key's template answers 404 template_not_found, as an unknown one does.
// Its operation({...}) entries look alike by design, one declaration per endpoint (docs/duplicates.md).

import { operation } from '../operation.ts';
import { accountOf } from '../middleware/auth.ts';
import { DEFAULT_PAGE_SIZE, listQuerySchema } from '../schemas/paging.ts';
import { templateBodySchema, templateListSchema, templateSchema } from '../schemas/templates.ts';
import type { TemplateFormat, TemplateInput, TemplateRecord, TemplatesService, TemplateSummary } from '../../services/templates/templates.ts';
import type { Page } from '../../services/accounts/paging.ts';
import { ApiError } from '../../errors.ts';
import { wordFactsOf } from '../../services/word/template.ts';

const TAG = 'Templates';
const SYNTAX =
  'Placeholders: {{path}} inserts the value HTML-escaped, {{{path}}} raw; dotted paths reach into nested data; a missing ' +
  'path renders empty; substitution is one pass (inserted values are never scanned again). Extensions: {{#list}}...{{/list}} repeats ' +
  'for each item (inside, names resolve in the item first, {{.}} is the item itself) or shows once for a truthy value; ' +
  '{{^path}}...{{/path}} shows when the value is missing, false, 0, "" or an empty list; {{! comment }}. Objects and lists print ' +
  'nothing. A syntax error is a 400 naming line and column; html over 5 MB is a 413. With format "markdown" the text is Markdown: ' +
  'placeholders are filled first ({{path}} then also escapes Markdown punctuation and line breaks, so a value stays literal text), then ' +
  'it becomes HTML as a markdown source does.';

export function templateOperations(templates: TemplatesService) {
  return [
    operation({
      method: 'post',
      path: '/v1/templates',
      summary: 'Create a template',
      description: SYNTAX,
      tag: TAG,
      auth: 'api_key',
      body: templateBodySchema,
      responses: {
        201: {
          description: 'The template, with Location: /v1/templates/{template_id}.',
          body: templateSchema,
          headers: { Location: '/v1/templates/{template_id}' },
        },
      },
      errors: ['invalid_json', 'invalid_request', 'unauthorized', 'payload_too_large'],
      handler: async ({ body }, _req, res) => {
        const record = await templates.create(accountOf(res).keyId, templateInputOf(body));
        res
          .status(201)
          .location(`/v1/templates/${record.id}`)
          .json(await templateWithFacts(record));
      },
    }),
    operation({
      method: 'get',
      path: '/v1/templates',
      summary: 'List templates',
      description: 'The calling key’s templates, newest first, without their HTML (fetch one for it). Paged like GET /v1/documents.',
      tag: TAG,
      auth: 'api_key',
      query: listQuerySchema,
      responses: { 200: { description: 'One page of templates.', body: templateListSchema } },
      errors: ['invalid_request', 'unauthorized'],
      handler: async ({ query }, _req, res) => {
        res.json(templatePageJson(await templates.list(accountOf(res).keyId, query.limit ?? DEFAULT_PAGE_SIZE, query.cursor)));
      },
    }),
    operation({
      method: 'get',
      path: '/v1/templates/:template_id',
      summary: 'Fetch a template',
      tag: TAG,
      auth: 'api_key',
      responses: { 200: { description: 'The template.', body: templateSchema } },
      errors: ['unauthorized', 'template_not_found'],
      handler: async ({ params }, _req, res) => {
        res.json(await templateWithFacts(await templates.get(accountOf(res).keyId, params.template_id!)));
      },
    }),
    operation({
      method: 'put',
      path: '/v1/templates/:template_id',
      summary: 'Replace a template',
      description:
        'Replaces name, html, format and sample_data (sample_data left out is cleared, format left out is html). Renders from now on use the new text.',
      tag: TAG,
      auth: 'api_key',
      body: templateBodySchema,
      responses: { 200: { description: 'The template.', body: templateSchema } },
      errors: ['invalid_json', 'invalid_request', 'unauthorized', 'template_not_found', 'payload_too_large'],
      handler: async ({ body, params }, _req, res) => {
        const record = await templates.replace(accountOf(res).keyId, params.template_id!, templateInputOf(body));
        res.json(await templateWithFacts(record));
      },
    }),
    operation({
      method: 'delete',
      path: '/v1/templates/:template_id',
      summary: 'Delete a template',
      tag: TAG,
      auth: 'api_key',
      responses: { 204: { description: 'Deleted; renders naming it answer 404 template_not_found.' } },
      errors: ['unauthorized', 'template_not_found'],
      handler: async ({ params }, _req, res) => {
        await templates.remove(accountOf(res).keyId, params.template_id!);
        res.status(204).end();
      },
    }),
  ];
}

/** What a template body (create or replace, a key's or the admin's) saves: html, or a Word template's file (kept in the same field). */
export function templateInputOf(body: {
  name: string;
  html?: string;
  file?: string;
  format?: TemplateFormat;
  sample_data?: Record<string, unknown> | null;
}): TemplateInput {
  const word = body.format === 'docx';
  if (word && body.file === undefined) throw new ApiError('invalid_request', 'A Word template (format "docx") is sent as file: its bytes, base64.');
  if (word && body.html !== undefined) throw new ApiError('invalid_request', 'A Word template is sent as file, not html: leave html out.');
  if (!word && body.file !== undefined) throw new ApiError('invalid_request', 'file is for Word templates: send format "docx" with it, or send html.');
  if (!word && body.html === undefined) throw new ApiError('invalid_request', 'html is required');
  return { name: body.name, html: (word ? body.file : body.html)!, format: body.format, sampleData: body.sample_data };
}

/** One template as GET, POST and PUT show it: a Word template with its placeholders and the lint of its sample data. */
export async function templateWithFacts(record: TemplateRecord) {
  return record.format === 'docx' ? { ...templateJson(record), ...(await wordFactsOf(record)) } : templateJson(record);
}

/** The wire form of a template (the admin's adds key_id). */
export function templateJson(record: TemplateRecord) {
  return {
    template_id: record.id,
    name: record.name,
    ...(record.format === 'docx' ? { file: record.html } : { html: record.html }),
    format: record.format,
    sample_data: record.sampleData,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}

export function templatePageJson(page: Page<TemplateSummary>, withKey = false) {
  return {
    data: page.items.map((meta) => ({
      template_id: meta.id,
      name: meta.name,
      format: meta.format,
      ...(meta.version !== undefined ? { version: meta.version } : {}),
      asset_count: meta.assetCount,
      created_at: meta.createdAt,
      updated_at: meta.updatedAt,
      ...(withKey ? { key_id: meta.keyId } : {}),
    })),
    next_cursor: page.nextCursor,
  };
}
