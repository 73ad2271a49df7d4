// docs/api.md#office-documents: office files to PDF. The admin window previews through the admin
// route (not stored, not charged); code calls POST /v1/convert/office with a key.

import { callPdf, type PdfResponse } from './client.ts';
import type { PdfAttachment, PdfEInvoice, RunningOption, SignOption } from './types.ts';

export const OFFICE_EXTENSIONS = ['docx', 'doc', 'odt', 'rtf', 'txt', 'xlsx', 'xls', 'ods', 'csv', 'pptx', 'ppt', 'odp'] as const;

export interface OfficeOptions {
  landscape?: boolean;
  page_ranges?: string;
  /** An archival PDF/A level (the choices: lib/pdf-options.ts pdfALevels). */
  pdf_a?: string;
  /** Signed in the keyed request only: the preview has no key (components/SignField.tsx). */
  sign?: SignOption;
  pdf_ua?: boolean;
  export_form_fields?: boolean;
  export_bookmarks?: boolean;
  lossless_images?: boolean;
  quality?: number;
  single_page_sheets?: boolean;
  password?: string;
  /** Drawn on the converted pages: docs/api.md#headers-and-footers. */
  header?: RunningOption;
  footer?: RunningOption;
  /** shrink (the server's default): each page's content scaled down to clear the boxes; margin: drawn in the page's own margin. */
  header_footer_fit?: HeaderFooterFit;
  /** Where the boxes sit from the page edges, a CSS margin (the server's default: 1cm). */
  header_footer_margin?: string;
  /** Files embedded as associated files, as on a render: docs/api.md#attachments. */
  attachments?: PdfAttachment[];
  /** The converted document made a Factur-X / ZUGFeRD e-invoice: docs/api.md#e-invoices. */
  e_invoice?: PdfEInvoice;
}

export const HEADER_FOOTER_FITS = ['shrink', 'margin'] as const;
export type HeaderFooterFit = (typeof HEADER_FOOTER_FITS)[number];

export interface OfficePreviewRequest {
  file: string;
  filename: string;
  options?: OfficeOptions;
  /** Values for the placeholders of options.header and options.footer. */
  data?: Record<string, unknown>;
}

export function previewOffice(request: OfficePreviewRequest, signal?: AbortSignal): Promise<PdfResponse> {
  return callPdf('POST', '/admin/v1/convert/office/preview', { body: request, admin: true, signal });
}
