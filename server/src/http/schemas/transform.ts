// Wire schema of POST /v1/pdf/transform (docs/api.md#transform-a-pdf): a PDF a user holds, the
// steps to apply in order (or a preset's id), and the options of the result.

import { z } from 'zod';
import { idPattern } from '../../ids.ts';
import { transformStepsSchema } from '../../pdf/transform/steps.ts';
import { mergeOptionsSchema } from './merge.ts';
import { pdfInputFields } from './pdf-input.ts';
import { filenameSchema, renderFields } from './render.ts';

export const transformOptionsSchema = mergeOptionsSchema
  .omit({ outline: true })
  .describe(
    'Applied to the result (each part of a split): metadata, watermark, encrypt, header and footer (as on a merge’s uploaded PDFs), and the final steps (PDF/A, attachments, signing) where this server has them.',
  );

export const transformRequestSchema = z
  .strictObject({
    ...pdfInputFields,
    steps: transformStepsSchema.optional(),
    preset_id: z
      .string()
      .regex(idPattern('pre'), { message: 'must look like pre_<id>' })
      .optional()
      .describe('A saved preset of this key: its steps take the place of steps.'),
    options: transformOptionsSchema.optional(),
    store: renderFields.store.optional(),
    filename: filenameSchema.optional().describe('Name of the result (and the stem of split parts’ names). Default: the upload’s name, else document.pdf.'),
  })
  .refine((body) => (body.steps === undefined) !== (body.preset_id === undefined), {
    message: 'needs exactly one of steps and preset_id',
    path: ['steps'],
  })
  .describe('Exactly one of pdf, a multipart part named file, and document_id; exactly one of steps and preset_id.');

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
