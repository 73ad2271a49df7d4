// docs/api.md#office-documents: office files to PDF. The admin window previews through the admin
// route (not stored, not charged); code calls POST /v1/convert/office with a key.

import { callPdf, type PdfResponse } from './client.ts';

export const OFFICE_EXTENSIONS = ['docx', 'doc', 'odt', 'rtf', 'txt', 'xlsx', 'xls', 'ods', 'csv', 'pptx', 'ppt', 'odp'] as const;

export interface OfficeOptions {
  landscape?: boolean;
  page_ranges?: string;
  pdf_a?: 'PDF/A-1b' | 'PDF/A-2b' | 'PDF/A-3b';
  pdf_ua?: boolean;
  export_form_fields?: boolean;
  export_bookmarks?: boolean;
  lossless_images?: boolean;
  quality?: number;
  single_page_sheets?: boolean;
  password?: string;
}

export interface OfficePreviewRequest {
  file: string;
  filename: string;
  options?: OfficeOptions;
}

export function previewOffice(request: OfficePreviewRequest, signal?: AbortSignal): Promise<PdfResponse> {
  return callPdf('POST', '/admin/v1/convert/office/preview', { body: request, admin: true, signal });
}
