// options.header and options.footer (docs/api.md#headers-and-footers): HTML drawn in a box above
// (below) every page's body, with template placeholders, page variables and variants per page.
// This module owns the wire shape and its validation; header-plan.ts and header-overlay.ts use it.
// Chromium's own header_template / footer_template stay as they are (print-params.ts).

import { z } from 'zod';
import { compileTemplate, TemplateSyntaxError } from './template.ts';
import { cssLengthToPx, parseMargin } from './css-length.ts';

/** Longest header or footer HTML (each variant): room for a small inlined logo. */
export const MAX_RUNNING_HTML = 3_000_000;
/** Largest image inlined as a data: URI in a header or footer (decoded); bigger ones belong in a template's assets. */
export const MAX_INLINE_IMAGE_BYTES = 2 * 1024 * 1024;

const VARIANTS = ['first', 'last', 'odd', 'even'] as const;
export type Variant = (typeof VARIANTS)[number];

const DATA_URI = /data:([a-z]+\/[a-z0-9.+-]+)?(;[a-z0-9=.+-]+)*;base64,([A-Za-z0-9+/=\s]+)/gi;

/** Why HTML cannot be a header (a template syntax error, an inlined image over the limit), or undefined. */
function htmlProblem(html: string): string | undefined {
  try {
    compileTemplate(html);
  } catch (error) {
    if (error instanceof TemplateSyntaxError) return `is not a valid template: ${error.message}`;
    throw error;
  }
  for (const match of html.matchAll(DATA_URI)) {
    const bytes = Math.floor((match[3]!.replace(/\s+/g, '').length * 3) / 4);
    if (bytes > MAX_INLINE_IMAGE_BYTES) {
      return `inlines an image of ${(bytes / 1024 / 1024).toFixed(1)} MB; at most ${MAX_INLINE_IMAGE_BYTES / 1024 / 1024} MB may be inlined (store bigger images as template assets)`;
    }
  }
  return undefined;
}

const runningHtml = z
  .string()
  .max(MAX_RUNNING_HTML)
  .superRefine((html, context) => {
    const problem = htmlProblem(html);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** A variant: HTML for those pages, or false (or null) for nothing there, as on a cover page. */
const variant = z.union([runningHtml, z.literal(false), z.null()]);

const heightSchema = z
  .string()
  .max(100)
  .refine((value) => {
    const px = cssLengthToPx(value);
    return px !== undefined && px > 0;
  }, 'must be a positive CSS length such as "2cm" or "60px"');

const runningObject = z
  .strictObject({
    html: runningHtml.optional().describe('HTML for every page that no variant below takes.'),
    height: heightSchema
      .optional()
      .describe('Height of the box as a CSS length. Default: the height of the content (the tallest variant), measured in the page.'),
    first: variant.optional().describe('The first page: HTML, or false for none (a cover page).'),
    last: variant.optional().describe('The last page (a single page is first). HTML, or false for none.'),
    odd: variant.optional().describe('Odd pages (1, 3, ...) that first and last do not take.'),
    even: variant.optional().describe('Even pages that first and last do not take.'),
  })
  .superRefine((value, context) => {
    const covered = value.html !== undefined || (value.odd !== undefined && value.even !== undefined);
    if (covered) return;
    const given = VARIANTS.filter((name) => value[name] !== undefined);
    const field = given[0] ?? 'html';
    context.addIssue({
      code: 'custom',
      path: given.length > 0 ? [field] : ['html'],
      message:
        given.length > 0
          ? `needs html beside it (the default for the pages ${given.join(', ')} do not take), or both odd and even`
          : 'is required (HTML for the pages), or both odd and even',
    });
  });

/** options.header / options.footer: an HTML string, or an object with variants. */
export const runningSchema = z
  .union([runningHtml, runningObject])
  .describe(
    'Extension: HTML drawn on every page in a box above the body (below it for footer), with the template placeholders, the render\u2019s data and the page variables page, pages, section, title, date (document_page, document_pages in merges); Chromium\u2019s classes pageNumber, totalPages, title, date also work. A string, or {html, height, first, last, odd, even}. The top (bottom) margin grows by the box\u2019s height. See docs/api.md#headers-and-footers.',
  );

export type RunningOption = z.output<typeof runningSchema>;

/** A header or footer in one shape: the string shorthand as {html}. */
export interface Running {
  html?: string;
  height?: string;
  first?: string | false | null;
  last?: string | false | null;
  odd?: string | false | null;
  even?: string | false | null;
}

export function normalizeRunning(option: RunningOption | undefined): Running | undefined {
  if (option === undefined) return undefined;
  return typeof option === 'string' ? { html: option } : option;
}

/** The HTML for a page (1-based) of `count`: first, last, odd/even, the default; undefined for none. */
export function htmlForPage(running: Running, page: number, count: number): string | undefined {
  const pick = (value: string | false | null | undefined) => (value === false || value === null ? undefined : value);
  if (page === 1 && running.first !== undefined) return pick(running.first);
  if (page === count && running.last !== undefined) return pick(running.last);
  const parity = page % 2 === 1 ? running.odd : running.even;
  if (parity !== undefined) return pick(parity);
  return running.html;
}

/** Every HTML a header or footer may draw, for measuring and for finding which variables it uses. */
export function variantsOf(running: Running): string[] {
  return [running.html, ...VARIANTS.map((name) => running[name])].filter((html): html is string => typeof html === 'string');
}

/** How a header and footer make room on pages we did not lay out (office conversions, uploaded and stored PDFs). */
export const HEADER_FOOTER_FITS = ['shrink', 'margin'] as const;
export type HeaderFooterFit = (typeof HEADER_FOOTER_FITS)[number];

/** The defaults of foreignHeadsFields, for callers whose options object is itself optional. */
export const DEFAULT_FOREIGN_HEADS = { header_footer_fit: 'shrink', header_footer_margin: '1cm' } as const;

/** The options of a header and footer drawn on a PDF we did not lay out. */
export const foreignHeadsFields = {
  header_footer_fit: z
    .enum(HEADER_FOOTER_FITS)
    .default(DEFAULT_FOREIGN_HEADS.header_footer_fit)
    .describe(
      'How the header and footer make room on pages Quire did not lay out (office files, uploaded and stored PDFs): shrink scales each page’s content down, centred, just enough that the boxes sit above and below it and cover nothing; margin draws them in the page’s own top and bottom margin at full size (the document’s margins must be tall enough, or the boxes cover its text).',
    ),
  header_footer_margin: z
    .string()
    .max(100)
    .refine((value) => parseMargin(value) !== undefined, 'must be a CSS length such as "1cm" (or up to four of them, as in CSS)')
    .default(DEFAULT_FOREIGN_HEADS.header_footer_margin)
    .describe('Where the boxes sit on pages Quire did not lay out: their distance from the page’s edges, as a CSS margin of up to four lengths.'),
};

/** The options that ask for a header and footer on a PDF we did not lay out. */
export interface PdfHeadsOptions {
  header?: RunningOption;
  footer?: RunningOption;
  header_footer_fit: HeaderFooterFit;
  header_footer_margin: string;
}
