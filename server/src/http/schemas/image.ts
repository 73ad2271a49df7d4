// Wire schema of POST /v1/image: a source as for /v1/pdf and the capture options (format,
// viewport, clip, full page, background) with the same wait options and url credentials.

import { z } from 'zod';
import { imageCaptureFields } from '../../render/image-capture.ts';
import { pdfOptionsSchema } from '../../render/pdf-options.ts';
import { urlOnlyFields } from '../../render/origin-credentials-options.ts';
import { markdownStyleFields } from '../../render/markdown-style-options.ts';
import { refuseMisplacedOptions, sourceFields } from './render.ts';

const waits = pdfOptionsSchema.pick({ timeout_ms: true, wait_until: true, wait_for: true, wait_ms: true, wait_for_function: true, receipt: true }).shape;

export const imageOptionsSchema = z
  .strictObject({
    ...imageCaptureFields,
    media: z.enum(['print', 'screen']).default('screen').describe('CSS media type to emulate (screen by default, unlike PDFs).'),
    ...waits,
    ...urlOnlyFields,
    ...markdownStyleFields,
  })
  .superRefine((options, ctx) => {
    if (options.quality !== undefined && options.type === 'png')
      ctx.addIssue({ code: 'custom', path: ['quality'], message: 'is only for jpeg and webp', input: options.quality });
    if (options.clip && options.full_page) ctx.addIssue({ code: 'custom', path: ['clip'], message: 'cannot be combined with full_page', input: undefined });
    if (options.omit_background && options.type === 'jpeg')
      ctx.addIssue({ code: 'custom', path: ['omit_background'], message: 'needs png or webp (jpeg has no transparency)', input: undefined });
  })
  .describe('How the page is captured. Every field is optional.');

export const imageRequestSchema = z
  .strictObject({
    ...sourceFields,
    options: imageOptionsSchema.optional(),
  })
  .superRefine((body, ctx) => refuseMisplacedOptions(body, ctx))
  .describe('Exactly one of html, url, markdown or template_id.');
