// PdfOptions: the fields of docs/api.md#pdfoptions with their bounds, allowed values and defaults, as one zod
// schema that validates requests, fills defaults and feeds the OpenAPI document.
// Also turns a complete PdfOptions into puppeteer's page.pdf() options, for the benchmarks' puppeteer
// baselines (the renderer itself sends CDP parameters: print-params.ts).

import { z } from 'zod';
import { between } from '../bounds.ts';
import { pageListSchema } from '../pdf/page-list.ts';
import { finishFields } from '../pdf/finish-options.ts';
import { attachmentFields } from '../pdf/attachment-options.ts';
import { pdfAFields } from '../pdf/pdf-a-options.ts';
import { pdfUaFields } from '../pdf/ua/ua-options.ts';
import { urlOnlyFields } from './origin-credentials-options.ts';
import { normalizeRunning, runningSchema } from './header-options.ts';
import { markdownStyleFields } from './markdown-style-options.ts';
import { tocFields } from './toc-options.ts';
import { signFields } from '../signing/sign-options.ts';

export const PAPER_FORMATS = ['A4', 'A3', 'A5', 'Letter', 'Legal', 'Tabloid'] as const;
export const WAIT_UNTIL = ['load', 'domcontentloaded', 'networkidle0', 'networkidle2'] as const;
export const WAIT_CLOCK = ['virtual', 'real'] as const;

/** Page sizes in PDF points (1/72 in), portrait. */
export const PAPER_SIZE_POINTS: Record<(typeof PAPER_FORMATS)[number], { width: number; height: number }> = {
  A4: { width: 595.28, height: 841.89 },
  A3: { width: 841.89, height: 1190.55 },
  A5: { width: 419.53, height: 595.28 },
  Letter: { width: 612, height: 792 },
  Legal: { width: 612, height: 1008 },
  Tabloid: { width: 792, height: 1224 },
};

export { cssLengthToPx, parseMargin, type Margins } from './css-length.ts';
import { cssLengthToPx, parseMargin } from './css-length.ts';

export { hasOrderedPages } from '../pdf/page-list.ts';

const TEMPLATE_MAX = 100_000;
/** Largest custom paper side: Chromium's own limit is 200 in; PDF viewers' is 200 in too. */
const MAX_PAPER_PX = 200 * 96;
const paperLength = z
  .string()
  .max(100)
  .refine(
    (value) => {
      const px = cssLengthToPx(value);
      return px !== undefined && px >= 72 && px <= MAX_PAPER_PX;
    },
    { message: 'must be a CSS length between 0.75in and 200in, such as "210mm" or "8.5in"' },
  );
const oneDecimal = (n: number) => n.toFixed(1);

/** One bound for every job's time budget (a render, an office conversion): 1 to 60 s, 30 s unless asked. */
export const timeoutMsSchema = (what: string) => z.int().min(1000, between(1000, 60_000)).max(60_000, between(1000, 60_000)).default(30_000).describe(what);

export const pdfOptionsSchema = z
  .strictObject({
    format: z.enum(PAPER_FORMATS).default('A4').describe('Paper size.'),
    landscape: z.boolean().default(false),
    margin: z
      .string()
      .max(100)
      .refine((value) => parseMargin(value) !== undefined, {
        message: 'must be a CSS length such as "1cm", "12pt" or "0.5in" (or up to four of them, as in CSS)',
      })
      .default('1cm')
      .describe('Page margin as a CSS length (px, in, cm, mm, Q, pt, pc), or a CSS shorthand of up to four.'),
    print_background: z.boolean().default(true),
    scale: z
      .number()
      .min(0.1, between(0.1, 2, oneDecimal))
      .max(2, between(0.1, 2, oneDecimal))
      .default(1),
    page_ranges: pageListSchema('Pages to keep. Default: all pages.').optional(),
    prefer_css_page_size: z.boolean().default(false),
    media: z.enum(['print', 'screen']).default('print').describe('CSS media type to emulate.'),
    timeout_ms: timeoutMsSchema('Budget for the whole render: navigation, waits and printing.'),
    wait_until: z
      .enum(WAIT_UNTIL)
      .default('networkidle0')
      .describe(
        'When the page counts as loaded. networkidle0 (networkidle2): after the load event, 500 ms with no (at most 2) requests in flight, on the clock wait_clock names.',
      ),
    wait_clock: z
      .enum(WAIT_CLOCK)
      .default('virtual')
      .describe(
        'Extension: the clock the page runs on while Quire waits for networkidle0, wait_for and wait_ms. "virtual" (default): ' +
          "Chromium's virtual time; Date.now(), performance.now() and timers jump to the next due timer instead of waiting, and stand " +
          "still while a request is in flight, so networkidle0 is exactly 500 ms of the page's clock after its last request started " +
          '(timers due in that time run, later ones do not) and a page with no traffic is printed within tens of milliseconds. The page ' +
          'is drawn every 100 ms of its clock and once more before the network counts as idle, so requestAnimationFrame callbacks, ' +
          'intersection observers and lazy (loading="lazy") images run as on a screen, at 10 frames per virtual second. The clock is ' +
          'held while the page is printed. CSS animations, transitions and media playback do not follow the virtual clock. "real": the ' +
          'wall clock, for a page that needs wall time to pass (networkidle0 then costs 0.5-1 s of waiting even with no traffic). ' +
          'Applies to wait_until networkidle0 only; other values, and the desktop app, always use the wall clock.',
      ),
    wait_for: z.string().min(1).max(1000).optional().describe("CSS selector to wait for before printing (the page's clock runs meanwhile, see wait_clock)."),
    wait_ms: z
      .int()
      .min(0, between(0, 5000))
      .max(5000, between(0, 5000))
      .default(0)
      .describe(
        "Extra delay before printing, in milliseconds: of the page's clock when it is virtual (wait_clock; its timers due in that time run at once), otherwise of wall time.",
      ),
    header_template: z
      .string()
      .max(TEMPLATE_MAX)
      .optional()
      .describe('Extension: HTML for the page header; classes pageNumber, totalPages, title, date are filled in.'),
    footer_template: z.string().max(TEMPLATE_MAX).optional().describe('Extension: HTML for the page footer, as header_template.'),
    header: runningSchema.optional(),
    footer: runningSchema.optional(),
    tagged: z
      .boolean()
      .default(false)
      .describe('Extension: produce a tagged (accessible) PDF. Off by default: tagged PDFs are several times larger and slower to make.'),
    width: paperLength.optional().describe('Extension: custom paper width as a CSS length ("210mm", "8.5in"); with height, instead of format.'),
    height: paperLength.optional().describe('Extension: custom paper height as a CSS length; with width, instead of format.'),
    wait_for_function: z
      .string()
      .min(1)
      .max(10_000)
      .optional()
      .describe('Extension: a JavaScript expression evaluated in the page until it is truthy (a promise is awaited), within timeout_ms; after wait_for.'),
    receipt: z
      .boolean()
      .default(false)
      .describe(
        'Extension: keep a receipt of this render (what the page loaded and was refused, console errors, fonts, timings), named by the X-Render-Receipt header; ' +
          'the key’s receipts setting may keep one anyway.',
      ),
    ...finishFields,
    ...attachmentFields,
    ...pdfAFields,
    ...pdfUaFields,
    ...tocFields,
    ...urlOnlyFields,
    ...markdownStyleFields,
    ...signFields,
  })
  .describe('How the page is printed. Every field is optional.');

export type PdfOptions = z.output<typeof pdfOptionsSchema>;

/** The defaults of every option, as docs/api.md#pdfoptions lists them. */
export const DEFAULT_PDF_OPTIONS: PdfOptions = pdfOptionsSchema.parse({});

/**
 * Why the margins leave no room for content on the chosen paper ("leaves no room ... on A4
 * paper"), or undefined when they fit or cannot be judged (unparsed input, or prefer_css_page_size,
 * where the page's own @page size may be larger). Chromium refuses such margins with a protocol
 * error that reads like a crash, so requests are checked before they reach it.
 */
export function marginProblem(options: PaperChoice & Pick<PdfOptions, 'margin' | 'prefer_css_page_size'>): string | undefined {
  if (options.prefer_css_page_size || typeof options.margin !== 'string') return undefined;
  const margins = parseMargin(options.margin);
  const paper = paperSizePoints(options);
  if (!margins || !paper) return undefined;
  const landscape = options.landscape === true;
  const [width, height] = (landscape ? [paper.height, paper.width] : [paper.width, paper.height]).map((points) => (points * 96) / 72) as [number, number];
  if (margins.left + margins.right < width && margins.top + margins.bottom < height) return undefined;
  const name = options.width !== undefined ? 'the custom' : options.format;
  return `leaves no room for content on ${name} paper${landscape ? ' in landscape' : ''}`;
}

/**
 * What is wrong with header/footer options beside the rest (the field and why), or undefined:
 * Chromium's templates and ours cannot share the margin, and fixed heights must leave room for the body.
 */
export function runningProblem(
  options: PaperChoice & Pick<PdfOptions, 'margin' | 'header' | 'footer' | 'header_template' | 'footer_template'>,
): { path: string[]; message: string } | undefined {
  for (const side of ['header', 'footer'] as const) {
    if (options[side] !== undefined && options[`${side}_template`] !== undefined)
      return { path: [side], message: `cannot be given with ${side}_template (Chromium's own ${side}): choose one` };
  }
  const header = normalizeRunning(options.header);
  const footer = normalizeRunning(options.footer);
  // Margins alone are marginProblem's to judge; without a fixed height there is nothing to add to them.
  if (header?.height === undefined && footer?.height === undefined) return undefined;
  const margins = typeof options.margin === 'string' ? parseMargin(options.margin) : undefined;
  const paper = paperSizePoints(options);
  if (!margins || !paper) return undefined;
  const paperHeight = ((options.landscape ? paper.width : paper.height) * 96) / 72;
  const taken = margins.top + margins.bottom + (cssLengthToPx(header?.height ?? '0') ?? 0) + (cssLengthToPx(footer?.height ?? '0') ?? 0);
  if (taken < paperHeight) return undefined;
  const side = header?.height !== undefined ? 'header' : 'footer';
  return {
    path: [side, 'height'],
    message: `leaves no room for the body: with the margins it takes ${Math.round(taken)}px of the page's ${Math.round(paperHeight)}px`,
  };
}

type PaperChoice = Pick<PdfOptions, 'format' | 'landscape' | 'width' | 'height'>;

/** The paper in points, portrait: width and height when both are given, else the format's; undefined for unparsed input. */
export function paperSizePoints(options: PaperChoice): { width: number; height: number } | undefined {
  if (options.width !== undefined && options.height !== undefined) {
    const [width, height] = [cssLengthToPx(options.width), cssLengthToPx(options.height)];
    return width !== undefined && height !== undefined ? { width: (width * 72) / 96, height: (height * 72) / 96 } : undefined;
  }
  return PAPER_SIZE_POINTS[options.format] as (typeof PAPER_SIZE_POINTS)['A4'] | undefined;
}

/** Custom paper needs both sides: which field is missing, or undefined when the choice is whole. */
export function paperProblem(options: Pick<PdfOptions, 'width' | 'height'>): { field: 'width' | 'height'; message: string } | undefined {
  if ((options.width === undefined) === (options.height === undefined)) return undefined;
  return options.width === undefined
    ? { field: 'width', message: 'is required with height (custom paper takes both)' }
    : { field: 'height', message: 'is required with width (custom paper takes both)' };
}
