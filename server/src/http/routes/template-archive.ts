// A template with its assets as one archive: export (GET .../export, a .tar.gz) and import
// (POST .../import with that archive as the body, making a new template) for a key (/v1) and
// the admin (/admin/v1, importing for the key named by key_id).

import { z } from 'zod';
import { idPattern } from '../../ids.ts';
import { ApiError } from '../../errors.ts';
import { operation } from '../operation.ts';
import { accountOf } from '../middleware/auth.ts';
import { readRawBody } from '../raw-body.ts';
import { contentDisposition } from '../content-disposition.ts';
import { adminTemplateSchema, templateSchema } from '../schemas/templates.ts';
import { MAX_ARCHIVE_BYTES, type TemplateArchiveService } from '../../services/templates/archive.ts';
import { templateJson } from './templates.ts';

const ABOUT =
  'The archive is a .tar.gz holding manifest.json (format quire-template/1: name, html, template_format, sample_data, and each asset’s name, content_type and member file) ' +
  'and the assets’ bytes. Versions are not exported; an import starts a new template at version 1.';
const tooLarge = () => new ApiError('payload_too_large', `A template archive may be at most ${Math.floor(MAX_ARCHIVE_BYTES / 1024 / 1024)} MB.`);
const importQuerySchema = z.object({
  key_id: z.string().regex(idPattern('key'), { message: 'must be a key id such as key_3kT9...' }).describe('The key that will own the imported template.'),
});

export function templateArchiveOperations(archives: TemplateArchiveService) {
  return [
    ...(['key', 'admin'] as const).map((scope) =>
      operation({
        method: 'get',
        path: `${scope === 'key' ? '' : '/admin'}/v1/templates/:template_id/export`,
        summary: 'Export a template with its assets',
        description: ABOUT,
        tag: scope === 'key' ? 'Templates' : 'Admin: documents and templates',
        auth: scope === 'key' ? 'api_key' : 'admin',
        responses: { 200: { description: 'The archive (application/gzip), as an attachment.', body: 'text' } },
        errors: ['unauthorized', 'template_not_found'],
        handler: async ({ params }, _req, res) => {
          const { filename, bytes } = await archives.export(scope === 'key' ? accountOf(res).keyId : undefined, params.template_id!);
          res
            .status(200)
            .set({ 'Content-Type': 'application/gzip', 'Content-Disposition': contentDisposition(filename, 'attachment') })
            .end(Buffer.from(bytes));
        },
      }),
    ),
    operation({
      method: 'post',
      path: '/v1/templates/import',
      summary: 'Import a template archive',
      description: `${ABOUT} The body is the archive’s bytes (Content-Type application/gzip). Checked whole before anything is stored: a bad archive is 400, one over the caps 413.`,
      tag: 'Templates',
      auth: 'api_key',
      rawBody: 'application/gzip',
      responses: { 201: { description: 'The new template, with Location.', body: templateSchema, headers: { Location: '/v1/templates/{template_id}' } } },
      errors: ['invalid_request', 'unauthorized', 'payload_too_large'],
      handler: async (_input, req, res) => {
        const keyId = accountOf(res).keyId;
        const record = await archives.import(keyId, await readRawBody(req, MAX_ARCHIVE_BYTES, tooLarge));
        res.status(201).location(`/v1/templates/${record.id}`).json(templateJson(record));
      },
    }),
    operation({
      method: 'post',
      path: '/admin/v1/templates/import',
      summary: 'Import a template archive for a key',
      description: `${ABOUT} The body is the archive’s bytes; key_id names the owner.`,
      tag: 'Admin: documents and templates',
      auth: 'admin',
      rawBody: 'application/gzip',
      query: importQuerySchema,
      responses: { 201: { description: 'The new template.', body: adminTemplateSchema } },
      errors: ['invalid_request', 'unauthorized', 'payload_too_large'],
      handler: async ({ query }, req, res) => {
        const record = await archives.import(query.key_id, await readRawBody(req, MAX_ARCHIVE_BYTES, tooLarge), true);
        res
          .status(201)
          .location(`/admin/v1/templates/${record.id}`)
          .json({ ...templateJson(record), key_id: record.keyId });
      },
    }),
  ];
}
