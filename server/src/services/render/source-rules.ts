// The rules a render's source obeys wherever the request comes from (POST /v1/pdf, a batch item,
// the playground, a merge or image source): exactly one of html, url, markdown and template_id,
// and the size ceiling of the HTML that is rendered. Checked before any I/O, charge or storage.

import { ApiError } from '../../errors.ts';

/** docs/api.md#limits: the rendered-result ceiling, checked on the HTML after template substitution. */
export const MAX_HTML_BYTES = 5 * 1024 * 1024;

/** The source fields of a render request. */
export interface SourceFields {
  html?: string;
  url?: string;
  markdown?: string;
  template_id?: string;
  template_version?: number;
  /** An office file converted by LibreOffice (services/office/office.ts). */
  office?: unknown;
}

/** The fields that name what a render loads; exactly one per request. */
export const SOURCE_FIELDS = ['html', 'url', 'markdown', 'template_id', 'office'] as const;
/** The ones rendered by Chromium (an office file is converted by LibreOffice instead). */
export const RENDERED_SOURCE_FIELDS = SOURCE_FIELDS.filter((field) => field !== 'office');
/** "html, url, ... or office", for the sentences that name them. */
const ONE_OF = `${SOURCE_FIELDS.slice(0, -1).join(', ')} or ${SOURCE_FIELDS.at(-1)}`;

/**
 * Exactly one of html, url, markdown, template_id, office (docs/api.md#rendering-post-v1pdf: conflicting_source), and
 * template_version only with template_id. `where` names the request inside a larger one ("requests[2]").
 */
export function checkSourceFields(input: SourceFields, where?: string): void {
  const given = SOURCE_FIELDS.filter((field) => input[field] !== undefined);
  const at = (sentence: string) => (where === undefined ? sentence : `${where}: ${sentence[0]!.toLowerCase()}${sentence.slice(1)}`);
  if (given.length > 1) throw new ApiError('conflicting_source', at(`Give only one of ${ONE_OF} (got ${given.join(' and ')}).`));
  if (given.length === 0) throw new ApiError('invalid_request', where === undefined ? `One of ${ONE_OF} is required.` : `${where} needs one of ${ONE_OF}.`);
  if (input.template_version !== undefined && input.template_id === undefined) throw new ApiError('invalid_request', at('template_version needs template_id.'));
}

/** Throws 413 payload_too_large when HTML is over the 5 MB ceiling. */
export function checkHtmlSize(html: string): string {
  if (Buffer.byteLength(html, 'utf8') > MAX_HTML_BYTES) {
    throw new ApiError('payload_too_large', 'The HTML to render is larger than the 5 MB limit (after template substitution).');
  }
  return html;
}

/** Throws 413 payload_too_large when Markdown is over the 5 MB ceiling, before any work is spent converting it. */
export function checkMarkdownSize(markdown: string): string {
  if (Buffer.byteLength(markdown, 'utf8') > MAX_HTML_BYTES) throw new ApiError('payload_too_large', 'markdown is larger than the 5 MB limit.');
  return markdown;
}
