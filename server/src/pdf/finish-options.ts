// The post-processing options of a render (metadata, encrypt, watermark) as zod schemas: they
// validate requests, fill defaults and feed the OpenAPI document. render/pdf-options.ts spreads
// them into PdfOptions; this folder applies them to the printed bytes (finish.ts).

import { z } from 'zod';
import { between } from '../bounds.ts';
import { pageListSchema } from './page-list.ts';

const text = (max: number) => z.string().max(max);

export const metadataSchema = z
  .strictObject({
    title: text(1000).optional().describe('Document title. Default: the page’s <title>.'),
    author: text(1000).optional(),
    subject: text(1000).optional(),
    keywords: z.array(text(200)).max(50).optional(),
    creator: text(1000).optional().describe('The application that made the content. Default: Quire.'),
  })
  .describe('Written to the document information dictionary and to XMP metadata.');

// AES-256 (revision 6) takes passwords as UTF-8, of which only the first 127 bytes count.
const password = z
  .string()
  .max(127)
  .refine((value) => Buffer.byteLength(value, 'utf8') <= 127, { message: 'must be at most 127 bytes in UTF-8' });

export const encryptSchema = z
  .strictObject({
    owner_password: password.min(1).describe('Opens the document with every right.'),
    user_password: password.optional().describe('Needed to open the document at all. Default: none (anyone can open it, with the permissions below).'),
    permissions: z
      .strictObject({
        print: z.enum(['none', 'low', 'high']).default('high').describe('Printing: not at all, low resolution only, or full quality.'),
        copy: z.boolean().default(false).describe('Copy text and graphics.'),
        modify: z.boolean().default(false).describe('Change the document (pages, content).'),
        annotate: z.boolean().default(false).describe('Add or change comments.'),
        fill_forms: z.boolean().default(false).describe('Fill in form fields.'),
      })
      .default({ print: 'high', copy: false, modify: false, annotate: false, fill_forms: false })
      .describe('What a reader without the owner password may do. Default: print only.'),
  })
  .describe('Encrypts the PDF with AES-256 (PDF 2.0, security handler revision 6).');

export const WATERMARK_POSITIONS = ['center', 'top-left', 'top', 'top-right', 'left', 'right', 'bottom-left', 'bottom', 'bottom-right'] as const;

// Helvetica (a standard PDF font, nothing embedded) draws WinAnsi text only: Latin scripts.
const WIN_ANSI =
  /^[\u0020-\u007e\u00a0-\u00ff\u20ac\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u017d\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u017e\u0178]*$/;
const DATA_IMAGE = /^data:image\/(png|jpeg|jpg);base64,[A-Za-z0-9+/=\s]+$/;

export const watermarkSchema = z
  .strictObject({
    text: z
      .string()
      .min(1)
      .max(200)
      .regex(WIN_ANSI, { message: 'must use Latin characters only (the watermark is drawn in Helvetica)' })
      .optional()
      .describe('Text to draw, kept as real text in the PDF. Exactly one of text and image.'),
    image: z
      .string()
      .max(4_000_000)
      .regex(DATA_IMAGE, { message: 'must be a data: URI of a PNG or JPEG image (data:image/png;base64,...)' })
      .optional()
      .describe('A PNG or JPEG image as a data: URI, drawn at 0.75 pt per pixel (96 dpi), shrunk to fit the page.'),
    opacity: z.number().min(0, between(0, 1)).max(1, between(0, 1)).default(0.2),
    rotate: z.number().min(-360, between(-360, 360)).max(360, between(-360, 360)).default(45).describe('Degrees, counter-clockwise.'),
    font_size: z.number().min(4, between(4, 400)).max(400, between(4, 400)).default(64).describe('Text size in points.'),
    color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, { message: 'must be a hex colour such as "#888888"' })
      .default('#888888'),
    position: z.enum(WATERMARK_POSITIONS).default('center').describe('Where the mark sits on each page (0.5 in from the edges).'),
    pages: pageListSchema('Pages to mark. Default: every page. Pages past the end are ignored.').optional(),
    layer: z.enum(['over', 'under']).default('over').describe('Over the page content, or under it (hidden where the page paints a background).'),
  })
  .refine((mark) => (mark.text === undefined) !== (mark.image === undefined), { message: 'needs exactly one of text and image' })
  .describe('A text or image mark drawn on the rendered pages as PDF content.');

/** The post-processing fields of PdfOptions. */
export const finishFields = {
  metadata: metadataSchema.optional(),
  outline: z.boolean().default(false).describe('Bookmarks from the page’s headings (h1-h6, nested), each opening its heading.'),
  encrypt: encryptSchema.optional(),
  watermark: watermarkSchema.optional(),
};

export type PdfMetadata = z.output<typeof metadataSchema>;
export type PdfEncryption = z.output<typeof encryptSchema>;
export type PdfWatermark = z.output<typeof watermarkSchema>;

/** The options finish.ts applies after printing. */
export interface FinishOptions {
  metadata?: PdfMetadata;
  encrypt?: PdfEncryption;
  watermark?: PdfWatermark;
}

/** Whether the printed bytes need any post-processing at all (most renders do not). */
export function needsFinishing(options: FinishOptions): boolean {
  return options.metadata !== undefined || options.encrypt !== undefined || options.watermark !== undefined;
}
