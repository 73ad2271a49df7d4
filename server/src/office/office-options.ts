// The options of an office conversion as zod schemas (requests, defaults, OpenAPI): what
// LibreOffice's PDF export filter does (office_bridge.py maps them to its FilterData), the time
// budget, a header and footer drawn on its pages (render/heads-on-pdf.ts), and the toolbox's
// post-processing (metadata, watermark, encrypt: pdf/finish.ts).

import { z } from 'zod';
import { signFields } from '../signing/sign-options.ts';
import { between } from '../render/bounds.ts';
import { finishFields, type FinishOptions } from '../pdf/finish-options.ts';
import { pageListSchema } from '../pdf/page-list.ts';
import { foreignHeadsFields, runningSchema } from '../render/header-options.ts';
import type { PdfHeadsOptions } from '../services/pdf-heads.ts';

export const PDF_A_LEVELS = ['PDF/A-1b', 'PDF/A-2b', 'PDF/A-3b'] as const;
export const IMAGE_RESOLUTIONS = [75, 150, 300, 600, 1200] as const;

/** What LibreOffice's PDF export is told (the bridge's `options`). */
export const officeExportFields = {
  landscape: z.boolean().default(false).describe('Turn every page style to landscape (documents and spreadsheets; slides keep their own shape).'),
  page_ranges: pageListSchema('Pages to export. Default: all.').optional(),
  pdf_a: z
    .enum(PDF_A_LEVELS)
    .optional()
    .describe('Write an archival PDF/A file through LibreOffice’s own export filter (fonts embedded, identification in the XMP metadata).'),
  pdf_ua: z.boolean().default(false).describe('Tagged PDF checked for PDF/UA (universal accessibility).'),
  export_form_fields: z.boolean().default(true).describe('Keep the document’s form controls as PDF form fields.'),
  export_bookmarks: z.boolean().default(true).describe('Bookmarks from the document’s headings (Writer) or slide titles.'),
  lossless_images: z.boolean().default(false).describe('Compress images without loss (PNG-like) rather than as JPEG.'),
  quality: z.int().min(1, between(1, 100)).max(100, between(1, 100)).default(90).describe('JPEG quality of images, when lossless_images is false.'),
  max_image_resolution: z
    .union(IMAGE_RESOLUTIONS.map((dpi) => z.literal(dpi)) as unknown as [z.ZodLiteral<75>, z.ZodLiteral<150>])
    .optional()
    .describe(`Downsample images above this resolution (dpi): one of ${IMAGE_RESOLUTIONS.join(', ')}. Default: keep them as they are.`),
  single_page_sheets: z.boolean().default(false).describe('Spreadsheets: each sheet on one page, however large.'),
  password: z.string().min(1).max(256).optional().describe('Opens a password-protected input. Never stored or logged.'),
};

export const officeOptionsSchema = z
  .strictObject({
    ...officeExportFields,
    timeout_ms: z
      .int()
      .min(1000, between(1000, 60_000))
      .max(60_000, between(1000, 60_000))
      .default(30_000)
      .describe('Budget for converting each file (LibreOffice loading and exporting it).'),
    header: runningSchema
      .optional()
      .describe(
        'Extension: HTML drawn above every page, as options.header of a render (variants, data placeholders from data, page variables; section is the nearest bookmark, title the document’s or the file’s name). The room it takes: header_footer_fit.',
      ),
    footer: runningSchema.optional().describe('Extension: as header, below every page.'),
    ...foreignHeadsFields,
    metadata: finishFields.metadata,
    watermark: finishFields.watermark,
    encrypt: finishFields.encrypt,
    ...signFields,
  })
  .superRefine((options, ctx) => {
    // The toolbox rewrites the file with pdf-lib, which keeps no PDF/A conformance (and PDF/A forbids encryption).
    if (options.pdf_a === undefined) return;
    for (const field of ['header', 'footer', 'metadata', 'watermark', 'encrypt'] as const) {
      if (options[field] !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `cannot be combined with pdf_a: the result would no longer be ${options.pdf_a}`,
          input: undefined,
        });
    }
  })
  .describe('How the office file becomes a PDF.');

export type OfficeOptions = z.output<typeof officeOptionsSchema>;

/** The part of OfficeOptions the bridge passes to LibreOffice. */
export type OfficeExportOptions = Omit<OfficeOptions, 'timeout_ms' | keyof FinishOptions | keyof PdfHeadsOptions>;

/** Options with every default filled in, for callers that give none. */
export const DEFAULT_OFFICE_OPTIONS: OfficeOptions = officeOptionsSchema.parse({});

/** Splits options into what LibreOffice does, the header and footer drawn after it, and what the toolbox does last. */
export function splitOfficeOptions(options: OfficeOptions): {
  exportOptions: OfficeExportOptions;
  heads: PdfHeadsOptions;
  finish: FinishOptions;
  timeoutMs: number;
} {
  const { timeout_ms, metadata, watermark, encrypt, header, footer, header_footer_fit, header_footer_margin, ...exportOptions } = options;
  return { exportOptions, heads: { header, footer, header_footer_fit, header_footer_margin }, finish: { metadata, watermark, encrypt }, timeoutMs: timeout_ms };
}

/** An office file as a render source (batch items, merge sources, the hot folder): base64 bytes, so it stores as JSON. */
export interface OfficeSource {
  file: string;
  filename: string;
  options?: OfficeOptions;
  /** Values for the placeholders of options.header and options.footer. */
  data?: unknown;
}
