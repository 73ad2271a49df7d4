// A Word template to PDF: fill the docx with data (fill.ts), convert it on the warm
// LibreOffice pool in the caller's fair slot, then draw the render's header and footer and apply
// the toolbox (metadata, watermark, encrypt) as an office source's own options would. The final
// steps (attachments, e-invoice, PDF/A, signature) run after this, in RenderService.

import { officeOptionsSchema, type OfficeOptions } from '../../office/office-options.ts';
import type { PdfOptions } from '../../render/pdf-options.ts';
import type { RenderPriority, Tenant } from '../../render/render-slots.ts';
import type { OfficeConverter } from '../office/converter.ts';
import { fillWordTemplate } from './fill.ts';

/** The fields of a render's options that a Word template's conversion honours (the rest are Chromium's: paper and margins are the document's own). */
const CARRIED = ['landscape', 'page_ranges', 'timeout_ms', 'header', 'footer', 'metadata', 'watermark', 'encrypt'] as const;

/** A render's options as the office conversion's: what LibreOffice and the header drawing take. */
export function officeOptionsOf(options: Partial<PdfOptions> | undefined): OfficeOptions {
  const picked: Record<string, unknown> = {};
  for (const field of CARRIED) if (options?.[field] !== undefined) picked[field] = options[field];
  return officeOptionsSchema.parse(picked);
}

export interface WordJob {
  /** The docx, base64 as stored. */
  docx: string;
  /** The template's name (the header's title variable). */
  name: string;
  data: unknown;
  options?: Partial<PdfOptions>;
  tenant?: Tenant;
  priority?: RenderPriority;
}

/** Fills and converts a Word template, header, footer and toolbox included. */
export async function renderWordTemplate(converter: OfficeConverter, job: WordJob): Promise<Uint8Array> {
  converter.requireAvailable();
  const filled = await fillWordTemplate(job.docx, job.data);
  const filename = `${job.name.replace(/[\\/]/g, '_') || 'template'}.docx`;
  return converter.convertSource(
    { file: Buffer.from(filled).toString('base64'), filename, options: officeOptionsOf(job.options), data: job.data },
    job.tenant,
    job.priority,
  );
}
