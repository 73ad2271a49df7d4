// Template versions over HTTP, for a key (/v1) and the admin (/admin/v1): list (paged like
// documents), view, diff against the current template, restore. The admin also has the visual
// check (POST /admin/v1/templates/{id}/check) and each version's reference rendering.
// Its operation({...}) entries look alike by design, one declaration per endpoint (docs/duplicates.md).

import { z } from 'zod';
import { ApiError } from '../../errors.ts';
import { operation, type AuthScheme } from '../operation.ts';
import { accountOf } from '../middleware/auth.ts';
import { DEFAULT_PAGE_SIZE, listQuerySchema, nextCursorSchema } from '../schemas/paging.ts';
import { adminTemplateSchema, templateFormatSchema, templateSchema } from '../schemas/templates.ts';
import type { CheckResult, TemplateVersion, TemplateVersionsService, VersionMeta } from '../../services/templates/versions.ts';
import { templateWithFacts } from './templates.ts';

const versionFields = {
  version: z.int().describe('Numbered from 1 in save order.'),
  name: z.string(),
  format: templateFormatSchema.describe('How html is read: "html" or "markdown".'),
  created_at: z.string().describe('ISO 8601: when it was saved.'),
  created_by: z.string().describe('Who saved it: the key id, or "admin".'),
};
const versionSummarySchema = z.object(versionFields);
const versionListSchema = z.object({ data: z.array(versionSummarySchema), next_cursor: nextCursorSchema });
const versionSchema = z.object({ ...versionFields, html: z.string(), sample_data: z.record(z.string(), z.unknown()).nullable() });
const diffSchema = z.object({
  version: z.int(),
  current_version: z.int(),
  html_diff: z.string().describe('Unified diff (hunks of " ", "-", "+" lines) from this version’s HTML to the current one; "" when equal.'),
  name_changed: z.boolean(),
  format_changed: z.boolean().describe('The version was read as another format (html or markdown) than the current template.'),
  sample_data_changed: z.boolean(),
});
const checkBodySchema = z.strictObject({ template_version: z.int().min(1).optional().describe('The version to check; the latest when left out.') });
const checkSchema = z.object({
  template_id: z.string(),
  template_version: z.int(),
  pages: z.int().describe('Pages of the longer of reference and today’s rendering.'),
  changed_pages: z.array(z.int()).describe('1-based numbers of the pages whose pixels differ.'),
  max_diff_ratio: z.number().describe('The largest share of differing pixels on one page (0..1).'),
  verdict: z.enum(['unchanged', 'changed', 'reference_created']),
});

const ABOUT =
  'Every save of a template (create, replace, restore) makes an immutable version numbered from 1, with its time and who saved it. ' +
  'A render may name template_version; without it the current template is used.';

/** The version operations under /v1 (the calling key's templates) or /admin/v1 (any template, plus the check). */
export function templateVersionOperations(versions: TemplateVersionsService, scope: 'key' | 'admin') {
  const base = scope === 'key' ? '/v1/templates/:template_id/versions' : '/admin/v1/templates/:template_id/versions';
  const auth: AuthScheme = scope === 'key' ? 'api_key' : 'admin';
  const tag = scope === 'key' ? 'Templates' : 'Admin: documents and templates';
  const ownerOf = (res: Parameters<typeof accountOf>[0]) => (scope === 'key' ? accountOf(res).keyId : undefined);
  const operations = [
    operation({
      method: 'get',
      path: base,
      summary: 'List a template’s versions',
      description: `${ABOUT} Newest first, paged like GET /v1/documents.`,
      tag,
      auth,
      query: listQuerySchema,
      responses: { 200: { description: 'One page of versions.', body: versionListSchema } },
      errors: ['invalid_request', 'unauthorized', 'template_not_found'],
      handler: async ({ params, query }, _req, res) => {
        const page = await versions.list(ownerOf(res), params.template_id!, query.limit ?? DEFAULT_PAGE_SIZE, query.cursor);
        res.json({ data: page.items.map(versionSummaryJson), next_cursor: page.nextCursor });
      },
    }),
    operation({
      method: 'get',
      path: `${base}/:version`,
      summary: 'View a template version',
      tag,
      auth,
      responses: { 200: { description: 'The version with its HTML and sample data.', body: versionSchema } },
      errors: ['invalid_request', 'unauthorized', 'template_not_found'],
      handler: async ({ params }, _req, res) => {
        res.json(versionJson(await versions.get(ownerOf(res), params.template_id!, versionOf(params.version))));
      },
    }),
    operation({
      method: 'get',
      path: `${base}/:version/diff`,
      summary: 'Diff a template version against the current template',
      tag,
      auth,
      responses: { 200: { description: 'What changed from this version to the current template.', body: diffSchema } },
      errors: ['invalid_request', 'unauthorized', 'template_not_found'],
      handler: async ({ params }, _req, res) => {
        const diff = await versions.diff(ownerOf(res), params.template_id!, versionOf(params.version));
        res.json({
          version: diff.version,
          current_version: diff.currentVersion,
          html_diff: diff.htmlDiff,
          name_changed: diff.nameChanged,
          format_changed: diff.formatChanged,
          sample_data_changed: diff.sampleDataChanged,
        });
      },
    }),
    operation({
      method: 'post',
      path: `${base}/:version/restore`,
      summary: 'Restore a template version',
      description: 'Makes the version’s name, html, format and sample_data current again; this is a save, so it makes a new version.',
      tag,
      auth,
      responses: { 200: { description: 'The template as it is now.', body: scope === 'key' ? templateSchema : adminTemplateSchema } },
      errors: ['invalid_request', 'unauthorized', 'template_not_found'],
      handler: async ({ params }, _req, res) => {
        const record = await versions.restore(ownerOf(res), params.template_id!, versionOf(params.version));
        const json = await templateWithFacts(record);
        res.json(scope === 'key' ? json : { ...json, key_id: record.keyId });
      },
    }),
  ];
  if (scope === 'key') return operations;
  return [
    ...operations,
    operation({
      method: 'get',
      path: `${base}/:version/reference`,
      summary: 'The reference rendering of a template version',
      description:
        'The PDF of the version’s sample data rendered when it was saved, which the check compares against; rendered now when the version has none yet.',
      tag,
      auth,
      responses: { 200: { description: 'The PDF.', body: 'pdf' } },
      errors: ['invalid_request', 'unauthorized', 'template_not_found', 'not_found'],
      handler: async ({ params }, _req, res) => {
        const pdf = await versions.referencePdf(params.template_id!, versionOf(params.version));
        res
          .status(200)
          .type('application/pdf')
          .end(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
      },
    }),
    operation({
      method: 'post',
      path: '/admin/v1/templates/:template_id/check',
      summary: 'Visual check of a template',
      description:
        'Renders a version’s sample data now and compares it, page by page and pixel by pixel, with the reference rendered when the version was saved: ' +
        'run it for every template after upgrading Chromium or fonts. A version without a reference gets one now (verdict reference_created). Not charged.',
      tag,
      auth,
      body: checkBodySchema,
      bodyOptional: true,
      responses: { 200: { description: 'The verdict.', body: checkSchema } },
      errors: ['invalid_json', 'invalid_request', 'unauthorized', 'template_not_found', 'renderer_busy', 'render_timeout'],
      handler: async ({ params, body }, _req, res) => {
        res.json(checkJson(await versions.check(params.template_id!, body.template_version)));
      },
    }),
  ];
}

function versionOf(text: string | undefined): number {
  if (!text || !/^[1-9]\d{0,8}$/.test(text)) throw new ApiError('invalid_request', 'The version in the path must be a whole number from 1.');
  return Number(text);
}

function versionSummaryJson(meta: VersionMeta) {
  return { version: meta.number, name: meta.name, format: meta.format, created_at: meta.createdAt, created_by: meta.createdBy };
}

function versionJson(version: TemplateVersion) {
  return { ...versionSummaryJson(version), html: version.html, sample_data: version.sampleData };
}

function checkJson(result: CheckResult) {
  return {
    template_id: result.templateId,
    template_version: result.version,
    pages: result.pages,
    changed_pages: result.changedPages,
    max_diff_ratio: result.maxDiffRatio,
    verdict: result.verdict,
  };
}
