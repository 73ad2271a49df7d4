// What a render asks for, in one place for the two ways it arrives: a call of POST /v1/pdf
// (RenderInput) and a batch item (BatchItemRequest, kept by the batch store as JSON it never
// reads). Both name their source with the same fields, so a batch item is a render request.

import type { OfficeSource } from '../../office/office-options.ts';
import type { MarkdownStyle } from '../../render/markdown-style-options.ts';
import type { PdfOptions } from '../../render/pdf-options.ts';
import type { TransformStep } from '../../pdf/transform/steps.ts';

/** The source of a render: exactly one of html, url, markdown, template_id and office (services/render/source-rules.ts). */
export interface RenderSourceFields {
  html?: string;
  url?: string;
  /** Markdown, turned into HTML here (services/markdown/markdown.ts) and rendered as html is. */
  markdown?: string;
  template_id?: string;
  /** A saved version of template_id; the current one when left out. */
  template_version?: number;
  data?: Record<string, unknown>;
  /** An office file to convert with LibreOffice instead of rendering (its own options; `options` does not apply). */
  office?: OfficeSource;
  filename?: string;
}

export interface RenderInput extends RenderSourceFields {
  options?: PdfOptions;
  store?: boolean;
}

/** What one batch item asks for: a render request with its options already merged and complete. */
export interface BatchItemRequest extends RenderSourceFields {
  options: PdfOptions;
  /** A PDF the key holds, transformed instead of rendered (services/pdf-tools/transform.ts); `options` does not apply. */
  transform?: TransformItemRequest;
}

/** A batch item's transform: its PDF (base64, or a stored document of the key) and the steps, a preset's already resolved. */
export interface TransformItemRequest {
  pdf?: string;
  document_id?: string;
  password?: string;
  steps: TransformStep[];
  /** The preset the steps came from (for the receipt); its later edits do not change a queued item. */
  preset_id?: string;
  /** The result's options (metadata, watermark, encrypt, header and footer, final steps), as the route takes them. */
  options?: Record<string, unknown>;
}

/** What resolveSource reads of a request: the source fields, the template data and the options that style Markdown. */
export type SourceInput = Omit<RenderSourceFields, 'filename'> & {
  /** The Markdown page's last title fallback, where the request names its file. */
  filename?: string;
  options?: MarkdownStyle & { lang?: string };
};
