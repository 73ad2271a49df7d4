// Template text to the document a render loads: parse it (413 over the 5 MB ceiling, 400 naming a
// syntax error), expand it with data within the size and step budgets (Markdown's values escaped
// for Markdown), and turn a Markdown result into HTML. Pure functions of the text, apart from the
// templates service (templates.ts) that stores, versions and caches templates.

import { ApiError } from '../../errors.ts';
import { markdownOnlyOptionsIn, type MarkdownStyle } from '../../render/markdown-style-options.ts';
import { compileTemplate, expandTemplate, MAX_EXPAND_STEPS, TemplateLimitError, TemplateSyntaxError, type CompiledTemplate } from '../../render/template.ts';
import type { TemplateFormat } from '../../stores/templates.ts';
import { escapeMarkdownText } from '../markdown/markdown.ts';
import { convertMarkdown } from '../markdown/convert.ts';
import { checkHtmlSize, MAX_HTML_BYTES } from '../render/source-rules.ts';
import { drawElements } from '../render/document-elements.ts';
import { parseWordTemplate } from '../word/template.ts';

/** Checks a template's text as its format says: HTML and Markdown parse to a compiled template; a Word file is checked and has no compiled form. */
export async function checkTemplateText(format: TemplateFormat | undefined, text: string): Promise<CompiledTemplate | undefined> {
  if (format !== 'docx') return parseTemplateText(text);
  await parseWordTemplate(text);
  return undefined;
}

/** Parses template HTML: 413 over the 5 MB ceiling (it could never render), 400 naming where a syntax error is. */
export function parseTemplateText(html: string): CompiledTemplate {
  if (Buffer.byteLength(html, 'utf8') > MAX_HTML_BYTES) {
    throw new ApiError('payload_too_large', 'html is larger than the 5 MB limit for what is rendered, so this template could never render.');
  }
  try {
    return compileTemplate(html);
  } catch (error) {
    if (error instanceof TemplateSyntaxError)
      throw new ApiError('invalid_request', `html has a template syntax error at line ${error.line}, column ${error.column}: ${error.reason}`);
    throw error;
  }
}

/**
 * The document an expanded template renders as: HTML as it is; Markdown turned into HTML, styled
 * by options.css (which an HTML template refuses: it has no default stylesheet to extend or replace);
 * then Quire's elements drawn (barcodes, charts: services/render/document-elements.ts), with the data charts may use.
 */
export async function documentOf(id: string, format: TemplateFormat, text: string, style: MarkdownStyle | undefined, data?: unknown): Promise<string> {
  if (format === 'markdown') return drawElements(checkHtmlSize(await convertMarkdown(text, style)), data);
  const [misplaced] = markdownOnlyOptionsIn(style);
  if (misplaced) throw new ApiError('invalid_request', `options.${misplaced} is only for Markdown sources, and template ${id} is HTML.`);
  return drawElements(text, data);
}

/** Expands within the 5 MB ceiling (docs/api.md#placeholders: checked after substitution) and the step budget; Markdown's values escaped for Markdown. */
export function expandTemplateText(template: CompiledTemplate, data: unknown, format: TemplateFormat): string {
  try {
    const limits = { maxOutputLength: MAX_HTML_BYTES, maxSteps: MAX_EXPAND_STEPS };
    return checkHtmlSize(expandTemplate(template, data, limits, format === 'markdown' ? escapeMarkdownText : undefined));
  } catch (error) {
    if (!(error instanceof TemplateLimitError)) throw error;
    if (error.limit === 'output') throw new ApiError('payload_too_large', 'The HTML to render is larger than the 5 MB limit (after template substitution).');
    throw new ApiError(
      'payload_too_large',
      `The template with this data takes more than ${MAX_EXPAND_STEPS.toLocaleString('en')} steps to expand (lists nested in lists); send less data.`,
    );
  }
}
