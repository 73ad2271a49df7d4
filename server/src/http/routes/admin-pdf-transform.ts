// The admin window's PDF tools screen (docs/api.md#admin-pdf-transform): a transform of an upload
// or any key's stored document, neither charged nor kept (as the admin's previews), and the
// presets of a key, listed, saved and deleted for it. The screen applies a preset by loading its
// steps into its list, so the admin transform takes steps only.

import { z } from 'zod';
import { ApiError } from '../../errors.ts';
import { idPattern } from '../../ids.ts';
import { transformStepsSchema } from '../../pdf/transform/steps.ts';
import type { PresetsService } from '../../services/pdf-tools/presets.ts';
import type { TransformService } from '../../services/pdf-tools/transform.ts';
import { operation } from '../operation.ts';
import { readPdfUpload } from '../pdf-upload.ts';
import { pdfInputFields } from '../schemas/pdf-input.ts';
import { filenameSchema } from '../schemas/render.ts';
import { transformOptionsSchema } from '../schemas/transform.ts';
import { presetBodySchema, presetJson, presetSchema } from './presets.ts';
import { sendTransform, STEPS_HEADER, TRANSFORM_BODY } from './transform.ts';

const TAG = 'Admin: documents and templates';

const adminTransformSchema = z
  .strictObject({
    ...pdfInputFields,
    document_id: pdfInputFields.document_id.describe('A stored document of any key.'),
    steps: transformStepsSchema,
    options: transformOptionsSchema.optional(),
    filename: filenameSchema.optional().describe('Name of the result (and the stem of split parts’ names). Default: document.pdf.'),
  })
  .describe('As POST /v1/pdf/transform without preset_id and store: exactly one of pdf, a multipart part named file, and document_id.');

const keyIdSchema = z.string().regex(idPattern('key'), { message: 'must be a key id such as key_3kT9...' }).describe('The key that owns the presets.');

/** Checks that a key is live (404 not_found otherwise), before a preset is saved for it. */
export type LiveKey = (keyId: string) => Promise<unknown>;

export function adminPdfTransformOperations(transforms: TransformService, presets: PresetsService, liveKey: LiveKey) {
  return [
    operation({
      method: 'post',
      path: '/admin/v1/pdf/transform',
      summary: 'Transform an uploaded PDF or any key’s stored document (not charged, not kept)',
      tag: TAG,
      auth: 'admin',
      bodies: { 'application/json': adminTransformSchema, 'multipart/form-data': adminTransformSchema },
      description:
        'As POST /v1/pdf/transform, for the admin window’s PDF tools screen: steps (no preset_id: the screen loads a preset’s steps), the same ' +
        'limits and refusals; the PDF, or a zip after a split. A split kept as documents and store are refused (400): nothing is kept or charged.',
      responses: { 200: { description: 'The PDF, or application/zip of a split’s parts.', body: 'pdf', headers: STEPS_HEADER } },
      errors: [
        'invalid_json',
        'invalid_request',
        'unauthorized',
        'document_not_found',
        'payload_too_large',
        'password_required',
        'password_incorrect',
        'pdf_unreadable',
        'pdf_tool_unavailable',
        'renderer_busy',
        'render_timeout',
      ],
      handler: async (_input, req, res) => {
        sendTransform(res, await transforms.transformAsAdmin(await readPdfUpload(req, adminTransformSchema, TRANSFORM_BODY)));
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/pdf/presets',
      summary: 'List a key’s transform presets',
      tag: TAG,
      auth: 'admin',
      query: z.object({ key_id: keyIdSchema }),
      responses: { 200: { description: 'Oldest first.', body: z.object({ data: z.array(presetSchema) }) } },
      errors: ['invalid_request', 'unauthorized'],
      handler: async ({ query }, _req, res) => {
        res.json({ data: (await presets.list(query.key_id)).map(presetJson) });
      },
    }),
    operation({
      method: 'post',
      path: '/admin/v1/pdf/presets',
      summary: 'Save transform steps as a preset of a key',
      tag: TAG,
      auth: 'admin',
      body: presetBodySchema.extend({ key_id: keyIdSchema }),
      description: 'The key applies it with POST /v1/pdf/transform and preset_id. An unknown or revoked key is 400.',
      responses: { 201: { description: 'The preset.', body: presetSchema } },
      errors: ['invalid_json', 'invalid_request', 'unauthorized'],
      handler: async ({ body }, _req, res) => {
        const { key_id, ...preset } = body;
        await liveKey(key_id).catch(() => {
          throw new ApiError('invalid_request', `key_id ${key_id} is not an API key in use (unknown or revoked).`);
        });
        res.status(201).json(presetJson(await presets.create(key_id, preset)));
      },
    }),
    operation({
      method: 'delete',
      path: '/admin/v1/pdf/presets/:preset_id',
      summary: 'Delete a key’s preset',
      tag: TAG,
      auth: 'admin',
      query: z.object({ key_id: keyIdSchema }),
      responses: { 204: { description: 'Deleted.' } },
      errors: ['invalid_request', 'unauthorized', 'preset_not_found'],
      handler: async ({ params, query }, _req, res) => {
        await presets.remove(query.key_id, params.preset_id!);
        res.status(204).end();
      },
    }),
  ];
}
