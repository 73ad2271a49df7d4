// /v1/pdf/presets: a key's saved transform steps (services/pdf-tools/presets.ts), applied with preset_id.
// Its operation({...}) entries look alike by design, one declaration per endpoint (docs/duplicates.md).

import { z } from 'zod';
import { transformStepsSchema } from '../../pdf/transform/steps.ts';
import type { PresetsService } from '../../services/pdf-tools/presets.ts';
import type { PresetRecord } from '../../stores/presets.ts';
import { accountOf } from '../middleware/auth.ts';
import { operation } from '../operation.ts';

export const presetBodySchema = z.strictObject({
  name: z.string().min(1).max(200).describe('What the preset is for, for people.'),
  steps: transformStepsSchema,
});

export const presetSchema = z.object({
  id: z.string(),
  name: z.string(),
  steps: z.array(z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
});

export function presetJson(record: PresetRecord): z.infer<typeof presetSchema> {
  return { id: record.id, name: record.name, steps: record.steps, created_at: record.createdAt, updated_at: record.updatedAt };
}

const TAG = 'Render';

export function presetOperations(presets: PresetsService) {
  return [
    operation({
      method: 'post',
      path: '/v1/pdf/presets',
      summary: 'Save a sequence of transform steps as a preset',
      tag: TAG,
      auth: 'api_key',
      body: presetBodySchema,
      description: 'The steps are checked as POST /v1/pdf/transform checks them; apply the preset there with preset_id in place of steps.',
      responses: { 201: { description: 'The preset.', body: presetSchema } },
      errors: ['invalid_json', 'invalid_request', 'unauthorized'],
      handler: async ({ body }, _req, res) => {
        const record = await presets.create(accountOf(res).keyId, body);
        res.status(201).location(`/v1/pdf/presets/${record.id}`).json(presetJson(record));
      },
    }),
    operation({
      method: 'get',
      path: '/v1/pdf/presets',
      summary: 'List this key’s presets',
      tag: TAG,
      auth: 'api_key',
      responses: { 200: { description: 'Oldest first.', body: z.object({ data: z.array(presetSchema) }) } },
      errors: ['unauthorized'],
      handler: async (_input, _req, res) => {
        res.json({ data: (await presets.list(accountOf(res).keyId)).map(presetJson) });
      },
    }),
    operation({
      method: 'get',
      path: '/v1/pdf/presets/:preset_id',
      summary: 'Read a preset',
      tag: TAG,
      auth: 'api_key',
      responses: { 200: { description: 'The preset.', body: presetSchema } },
      errors: ['unauthorized', 'preset_not_found'],
      handler: async ({ params }, _req, res) => {
        res.json(presetJson(await presets.get(accountOf(res).keyId, params.preset_id!)));
      },
    }),
    operation({
      method: 'put',
      path: '/v1/pdf/presets/:preset_id',
      summary: 'Replace a preset’s name and steps',
      tag: TAG,
      auth: 'api_key',
      body: presetBodySchema,
      responses: { 200: { description: 'The preset.', body: presetSchema } },
      errors: ['invalid_json', 'invalid_request', 'unauthorized', 'preset_not_found'],
      handler: async ({ body, params }, _req, res) => {
        res.json(presetJson(await presets.replace(accountOf(res).keyId, params.preset_id!, body)));
      },
    }),
    operation({
      method: 'delete',
      path: '/v1/pdf/presets/:preset_id',
      summary: 'Delete a preset',
      tag: TAG,
      auth: 'api_key',
      responses: { 204: { description: 'Deleted; transforms naming it answer 404 preset_not_found.' } },
      errors: ['unauthorized', 'preset_not_found'],
      handler: async ({ params }, _req, res) => {
        await presets.remove(accountOf(res).keyId, params.preset_id!);
        res.status(204).end();
      },
    }),
  ];
}
