// Fills one header or footer instance: the template placeholders with the render's data and the
// page variables (page, pages, section, title, date, document_page, document_pages; these win
// over data keys of the same name), then Chromium's classes (pageNumber, totalPages, title, date,
// url) so headers written for header_template move over unchanged.

import { RenderInputError } from './errors.ts';
import { MAX_RUNNING_HTML } from './header-options.ts';
import { compileTemplate, escapeHtml, expandTemplate, MAX_EXPAND_STEPS, TemplateLimitError, type CompiledTemplate } from './template.ts';

export interface PageVariables {
  page: number;
  pages: number;
  document_page: number;
  document_pages: number;
  section: string;
  title: string;
  date: string;
  url?: string;
}

const compiled = new Map<string, CompiledTemplate>();

/** The HTML expanded for one page; throws RenderInputError naming the field past the template limits. */
export function expandRunning(html: string, data: unknown, variables: PageVariables, field: string): string {
  let template = compiled.get(html);
  if (!template) {
    template = compileTemplate(html);
    // A render's few variants, reused for each of its pages; not a cache across renders.
    if (compiled.size > 32) compiled.clear();
    compiled.set(html, template);
  }
  const context = typeof data === 'object' && data !== null && !Array.isArray(data) ? { ...(data as object), ...variables } : variables;
  let expanded: string;
  try {
    expanded = expandTemplate(template, context, { maxOutputLength: MAX_RUNNING_HTML, maxSteps: MAX_EXPAND_STEPS });
  } catch (error) {
    if (error instanceof TemplateLimitError) throw new RenderInputError(field, `${field} ${error.message}`);
    throw error;
  }
  return fillChromiumClasses(expanded, variables);
}

const CHROMIUM_CLASSES = ['pageNumber', 'totalPages', 'title', 'date', 'url'] as const;
// An empty element with one of Chromium's classes, as Chromium's templates write them:
// <span class="pageNumber"></span>. An element with content keeps it (class="title" is a common style name).
const CLASSED_ELEMENT = /<([a-zA-Z][a-zA-Z0-9-]*)(\s[^<>]*?\bclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))[^<>]*)>\s*<\/\1\s*>/g;

function fillChromiumClasses(html: string, variables: PageVariables): string {
  if (!/pageNumber|totalPages|title|date|url/.test(html)) return html;
  const values: Record<(typeof CHROMIUM_CLASSES)[number], string> = {
    pageNumber: String(variables.page),
    totalPages: String(variables.pages),
    title: variables.title,
    date: variables.date,
    url: variables.url ?? '',
  };
  return html.replace(CLASSED_ELEMENT, (whole, tag: string, attributes: string, double?: string, single?: string, bare?: string) => {
    const classes = (double ?? single ?? bare ?? '').split(/\s+/);
    const name = CHROMIUM_CLASSES.find((candidate) => classes.includes(candidate));
    return name ? `<${tag}${attributes}>${escapeHtml(values[name])}</${tag}>` : whole;
  });
}
