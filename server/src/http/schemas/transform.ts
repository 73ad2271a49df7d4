// Wire schema of POST /v1/pdf/transform (docs/api.md#transform-a-pdf): a PDF a user holds, the
// steps to apply in order (or a preset's id), and the options of the result.

import { z } from 'zod';
import { idPattern } from '../../ids.ts';
import { transformStepsSchema } from '../../pdf/transform/steps.ts';
import { mergeOptionsSchema } from './merge.ts';
import { pdfBase64Schema, pdfInputFields } from './pdf-input.ts';
import { filenameSchema, renderFields } from './render.ts';

export const transformOptionsSchema = mergeOptionsSchema
  .omit({ outline: true, toc: true })
  .describe(
    'Applied to the result (each part of a split): metadata, watermark, encrypt, header and footer (as on a merge’s uploaded PDFs), and the final steps (PDF/A, attachments, signing) where this server has them.',
  );

const presetIdSchema = z
  .string()
  .regex(idPattern('pre'), { message: 'must look like pre_<id>' })
  .describe('A saved preset of this key: its steps take the place of steps.');

const hasStepsOrPreset = (body: { steps?: unknown; preset_id?: unknown }) => (body.steps === undefined) !== (body.preset_id === undefined);
const STEPS_OR_PRESET = { message: 'needs exactly one of steps and preset_id', path: ['steps'] };

export const transformRequestSchema = z
  .strictObject({
    ...pdfInputFields,
    steps: transformStepsSchema.optional(),
    preset_id: presetIdSchema.optional(),
    options: transformOptionsSchema.optional(),
    store: renderFields.store.optional(),
    filename: filenameSchema.optional().describe('Name of the result (and the stem of split parts’ names). Default: the upload’s name, else document.pdf.'),
  })
  .refine(hasStepsOrPreset, STEPS_OR_PRESET)
  .describe('Exactly one of pdf, a multipart part named file, and document_id; exactly one of steps and preset_id.');

/** The steps of a transform that makes one PDF (a batch item, a hot-folder file): no split. */
const oneStepsSchema = transformStepsSchema.refine((steps) => !steps.some((step) => step.op === 'split'), {
  message: 'may not split: an item makes one PDF (split with POST /v1/pdf/transform)',
});

/**
 * A transform as one batch item or hot-folder file (services/pdf-tools/transform.ts `one`): one PDF in, one
 * PDF out, so no split; the PDF stays base64 until the item runs. Its own options (not the batch's).
 */
export const transformItemSchema = z
  .strictObject({
    pdf: pdfBase64Schema.optional().describe('The PDF, base64. Exactly one of pdf and document_id.'),
    document_id: pdfInputFields.document_id,
    password: pdfInputFields.password,
    steps: oneStepsSchema.optional(),
    preset_id: presetIdSchema.optional(),
    options: transformOptionsSchema.optional(),
  })
  .refine(hasStepsOrPreset, STEPS_OR_PRESET)
  .refine((item) => (item.pdf === undefined) !== (item.document_id === undefined), { message: 'needs exactly one of pdf and document_id', path: ['pdf'] })
  .describe('A PDF you hold (pdf as base64, or document_id) and the steps to apply in order, or a preset_id; no split.');

/** WATCH_DIR/settings.json's "pdf" entry: the transform each dropped name.pdf goes through (one PDF out, so no split). */
export const hotFolderPdfSchema = z
  .strictObject({ steps: oneStepsSchema.optional(), preset_id: presetIdSchema.optional(), options: transformOptionsSchema.optional() })
  .refine(hasStepsOrPreset, STEPS_OR_PRESET);

/** For the OpenAPI document: the multipart form (the PDF in a part named file, the other fields as JSON or text). */
export const transformMultipartSchema = z
  .object({
    file: z.string().meta({ format: 'binary' }).describe('The PDF.'),
    steps: z.string().optional().describe('The steps as a JSON array.'),
    preset_id: z.string().optional(),
    password: z.string().optional(),
    options: z.string().optional().describe('The options as a JSON object.'),
    store: z.string().optional().describe('true or false.'),
    filename: z.string().optional(),
  })
  .describe('multipart/form-data');
