// Wire schemas of the read-only PDF tools (docs/api.md#pdf-tools): POST /v1/pdf/inspect and
// /v1/pdf/images (a PDF input as every PDF tool takes it, http/schemas/pdf-input.ts), the
// thumbnail query, and the inspection's JSON.

import { z } from 'zod';
import { pageListSchema } from '../../pdf/page-list.ts';
import { pdfInputFields } from './pdf-input.ts';
import { INSPECT_CHECKS } from '../../pdf/inspect-checks.ts';

export const inspectRequestSchema = z
  .strictObject({
    ...pdfInputFields,
    checks: z
      .array(z.enum(INSPECT_CHECKS))
      .max(INSPECT_CHECKS.length)
      .optional()
      .describe(
        'Checks to run as well, free: "pdf_ua" runs the PDF/UA-1 checker (the Matterhorn conditions options.pdf_ua is held to) and answers its report in checks.pdf_ua.',
      ),
  })
  .describe('Exactly one of pdf, a file part or document_id; checks to run on it.');

export const imagesRequestSchema = z
  .strictObject({
    ...pdfInputFields,
    pages: pageListSchema('Only these pages, one image each, in this order. Default: every page.').optional(),
    format: z.enum(['png', 'jpeg', 'webp']).default('png').describe('Image type. Default png.'),
    quality: z.int().min(1).max(100).optional().describe('jpeg and webp: 1-100 (default 85).'),
    dpi: z.number().min(10).max(1200).optional().describe('Pixels per inch (default 150). Not with width.'),
    width: z.int().min(16).max(10_000).optional().describe('Every image this many pixels wide instead, the height following the page. Not with dpi.'),
    output: z
      .enum(['zip', 'json', 'image'])
      .default('zip')
      .describe(
        'zip: one file per page (default); json: {pages: [{page, width, height, content_type, filename, data (base64)}]}; image: the one page asked, as the body.',
      ),
  })
  .superRefine((body, ctx) => {
    if (body.dpi !== undefined && body.width !== undefined)
      ctx.addIssue({ code: 'custom', path: ['width'], message: 'cannot be combined with dpi: give one', input: body.width });
    if (body.quality !== undefined && body.format === 'png')
      ctx.addIssue({ code: 'custom', path: ['quality'], message: 'is only for jpeg and webp', input: body.quality });
  })
  .describe('Exactly one of pdf, a file part or document_id, and how to draw it.');

export const thumbnailQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1).describe('The page (default 1; past the last page: the last).'),
  width: z.coerce.number().int().min(16).max(1200).default(240).describe('Pixels wide (default 240).'),
});

const looseList = (what: string) => z.array(z.looseObject({})).describe(what);

export const inspectionSchema = z.object({
  version: z.string().describe('PDF version: the header’s, or the catalog’s /Version when later.'),
  page_count: z.int(),
  pages: looseList('{number, width, height, rotation}: the visible box (CropBox, else MediaBox) in points before rotation; rotation 0, 90, 180 or 270.'),
  info: z.record(z.string(), z.string()).describe('The document information dictionary: Title, Author, Producer, CreationDate (PDF date strings)...'),
  xmp: z.string().nullable().describe('The XMP packet, as text.'),
  bookmarks: looseList('{title, page (1-based, null for a named or external destination), children}.'),
  form_fields: looseList('{name (full, dotted), type (text, checkbox, radio, button, combobox, listbox, signature), value, options?, read_only, required}.'),
  attachments: looseList('{name, size, mime, description, relationship (AFRelationship), modified, page (null: the document’s)}.'),
  fonts: looseList('{name, subset, type, embedded}, once per name and type.'),
  images: looseList(
    '{page, object, width, height, bits_per_component, color_space, filter, mask, x_dpi, y_dpi}: once per placement, x_dpi and y_dpi as placed (pdfimages -list’s x-ppi, y-ppi).',
  ),
  encryption: z
    .looseObject({})
    .nullable()
    .describe(
      '{method (RC4, AES-128, AES-256), key_bits, version, revision, permissions: {print, print_high_quality, modify, copy, annotate, fill_forms, extract_for_accessibility, assemble}}; null: not encrypted.',
    ),
  tagged: z.boolean().describe('/MarkInfo /Marked true.'),
  structure_tree: z.boolean(),
  pdf_a: z.string().nullable().describe('The PDF/A claim of the XMP (pdfaid part and conformance: "2b", "3u"), not a validation.'),
  pdf_ua: z.string().nullable().describe('The PDF/UA claim (pdfuaid part).'),
  signatures: looseList('{field, signed, filter, sub_filter, signer (/Name), signed_at (/M), reason, location}: what the file says; nothing is verified.'),
  javascript: z.boolean().describe('The document carries scripts or open actions (never run here).'),
  checks: z
    .looseObject({})
    .optional()
    .describe(
      'With checks asked: pdf_ua {level, checker, checks (conditions decided), failed [{condition (Matterhorn number), page (null: the document’s), detail}], needs_person [{topic, conditions, detail}], passed}.',
    ),
});
