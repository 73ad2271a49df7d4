// The options of an office conversion as zod schemas (requests, defaults, OpenAPI): what
// LibreOffice's PDF export filter does (office_bridge.py maps them to its FilterData), the time
// budget, a header and footer drawn on its pages (render/heads-on-pdf.ts), and the toolbox's
// post-processing (metadata, watermark, encrypt: pdf/finish.ts).

import { z } from 'zod';
import { signFields } from '../signing/sign-options.ts';
import { between } from '../bounds.ts';
import { finishFields, type FinishOptions } from '../pdf/finish-options.ts';
import { attachmentFields } from '../pdf/attachment-options.ts';
import { pdfAFields } from '../pdf/pdf-a-options.ts';
import { PDF_UA_LEVELS, pdfUaFields } from '../pdf/ua/ua-options.ts';
import { pageListSchema } from '../pdf/page-list.ts';
import { foreignHeadsFields, runningSchema, type PdfHeadsOptions } from '../render/header-options.ts';
import { timeoutMsSchema } from '../render/pdf-options.ts';

export const IMAGE_RESOLUTIONS = [75, 150, 300, 600, 1200] as const;

/** What LibreOffice's PDF export is told (the bridge's `options`). */
export const officeExportFields = {
  landscape: z.boolean().default(false).describe('Turn every page style to landscape (documents and spreadsheets; slides keep their own shape).'),
  page_ranges: pageListSchema('Pages to export. Default: all.').optional(),
  pdf_ua: z
    .union([z.boolean(), z.enum(PDF_UA_LEVELS)])
    .default(false)
    .describe(
      'true: LibreOffice’s own tagged PDF/UA export (PDFUACompliance), as it makes it. "PDF/UA-1": that export made a PDF/UA-1 file by ' +
        'Quire’s fixer and checked by its checker (X-PDF-UA, 422 accessibility_failed), as options.pdf_ua of a render.',
    ),
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
    timeout_ms: timeoutMsSchema('Budget for converting each file (LibreOffice loading and exporting it).'),
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
    receipt: z
      .boolean()
      .default(false)
      .describe(
        'Extension: keep a receipt of this conversion (files, options in force, timings, pages), named by X-Render-Receipt; the key’s receipts setting may keep one anyway.',
      ),
    ...attachmentFields,
    // The PDF/A step of every output (services/output/pdf-a-step.ts) makes the finished file archival, after
    // the header, footer, metadata and watermark; LibreOffice's own PDF/A export is no longer used.
    ...pdfAFields,
    lang: pdfUaFields.lang,
    ...signFields,
  })
  .describe('How the office file becomes a PDF.');

export type OfficeOptions = z.output<typeof officeOptionsSchema>;

/** The part of OfficeOptions the bridge passes to LibreOffice. */
export type OfficeExportOptions = Omit<
  OfficeOptions,
  'timeout_ms' | 'receipt' | 'pdf_a' | 'lang' | 'attachments' | 'e_invoice' | 'sign' | keyof FinishOptions | keyof PdfHeadsOptions
>;

/** Options with every default filled in, for callers that give none. */
export const DEFAULT_OFFICE_OPTIONS: OfficeOptions = officeOptionsSchema.parse({});

/** Splits options into what LibreOffice does, the header and footer drawn after it, and what the toolbox does last (the final steps read attachments and e_invoice themselves). */
export function splitOfficeOptions(options: OfficeOptions): {
  exportOptions: OfficeExportOptions;
  heads: PdfHeadsOptions;
  finish: FinishOptions;
  timeoutMs: number;
} {
  // pdf_a, attachments, e_invoice and sign are the final steps', which run on the finished file (RenderService).
  const {
    timeout_ms,
    metadata,
    watermark,
    encrypt,
    header,
    footer,
    header_footer_fit,
    header_footer_margin,
    receipt: _receipt,
    pdf_a: _pdfA,
    lang: _lang,
    attachments: _attachments,
    e_invoice: _eInvoice,
    sign: _sign,
    ...exportOptions
  } = options;
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
