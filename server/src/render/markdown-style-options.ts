// The options that style a Markdown source (docs/api.md#markdown): options.css and options.css_mode,
// as zod fields carried in PdfOptions and the image options like the toolbox's finishFields.
// services/markdown/markdown.ts reads them when it turns Markdown into HTML; the renderer never does.

import { z } from 'zod';

export const CSS_MODES = ['extend', 'replace'] as const;

/** Largest options.css: the rendered document must still fit the 5 MB ceiling. */
export const MAX_CSS_LENGTH = 1_000_000;

export const markdownStyleFields = {
  css: z
    .string()
    .max(MAX_CSS_LENGTH)
    .optional()
    .describe('Extension, Markdown sources only: CSS for the page, after the default print stylesheet (css_mode "extend") or instead of it ("replace").'),
  css_mode: z
    .enum(CSS_MODES)
    .optional()
    .describe('Extension, Markdown sources only: "extend" (the default) keeps the default print stylesheet under css; "replace" leaves it out.'),
};

/** How a Markdown source is styled. */
export interface MarkdownStyle {
  css?: string;
  css_mode?: (typeof CSS_MODES)[number];
}

/** The names of the options that mean something only for a Markdown source, as given in `options`. */
export function markdownOnlyOptionsIn(options: MarkdownStyle | undefined): string[] {
  return (['css', 'css_mode'] as const).filter((name) => options?.[name] !== undefined);
}
