// How a merge's own options reach each of its sources: the merge's header and footer where a
// source has none, and tagged output when the merge is to be PDF/UA (its structure is what the
// merge keeps). The merge's option type lives here so services/merge/merge.ts and this module share it.

import type { FinishOptions } from '../../pdf/finish-options.ts';
import { DEFAULT_FOREIGN_HEADS } from '../../render/header-options.ts';
import type { HeadsOnPdf } from '../../render/heads-on-pdf.ts';
import type { PdfOptions } from '../../render/pdf-options.ts';
import { DEFAULT_OFFICE_OPTIONS } from '../../office/office-options.ts';
import { pdfHeadsOf, type PdfHeadsOptions } from '../office/pdf-heads.ts';
import type { OfficeSource } from '../office/converter.ts';
import type { MergeToc } from './toc.ts';

/** The merge's own options: the result's post-processing, and a header and footer for every source that has none of its own. */
export type MergeOptions = FinishOptions & { outline?: boolean; receipt?: boolean; pdf_ua?: unknown; lang?: string; toc?: MergeToc } & Partial<PdfHeadsOptions>;

/** A source's options with the merge's header and footer where it has none of its own (nor Chromium's). */
export function withMergeHeads(options: PdfOptions, merge: MergeOptions | undefined): PdfOptions {
  const header = options.header ?? (options.header_template === undefined ? merge?.header : undefined);
  const footer = options.footer ?? (options.footer_template === undefined ? merge?.footer : undefined);
  return header === options.header && footer === options.footer ? options : { ...options, header, footer };
}

/** A rendered source printed tagged when the merge is to be PDF/UA: its structure is what the merge keeps. */
export function tagged(options: PdfOptions, merge: MergeOptions | undefined): PdfOptions {
  return merge?.pdf_ua === 'PDF/UA-1' && !options.tagged ? { ...options, tagged: true } : options;
}

/** An office source exported tagged (LibreOffice's PDF/UA export) when the merge is to be PDF/UA. */
export function taggedOffice(office: OfficeSource, merge: MergeOptions | undefined): OfficeSource {
  if (merge?.pdf_ua !== 'PDF/UA-1' || office.options?.pdf_ua) return office;
  return { ...office, options: { ...(office.options ?? DEFAULT_OFFICE_OPTIONS), pdf_ua: true } };
}

/** The merge's header and footer as drawn on a source Quire did not lay out, or undefined when it asks for neither. */
export function mergeHeadsOf(options: MergeOptions | undefined): HeadsOnPdf | undefined {
  return options && pdfHeadsOf({ ...DEFAULT_FOREIGN_HEADS, ...options }, { field: 'options' });
}
