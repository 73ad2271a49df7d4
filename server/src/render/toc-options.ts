// options.toc: a table of contents with the page numbers the headings print on
// (docs/api.md#table-of-contents). The wire shape and its defaults only; the pass that lays it out
// is toc-pass.ts.

import { z } from 'zod';

export const TOC_POSITIONS = ['start', 'end'] as const;

export const tocSchema = z
  .strictObject({
    title: z.string().max(500).default('Contents').describe('The line above the entries ("" for none). Default: "Contents".'),
    depth: z
      .int()
      .min(1, { message: 'must be between 1 and 6' })
      .max(6, { message: 'must be between 1 and 6' })
      .default(3)
      .describe('The deepest heading listed: 3 lists h1, h2 and h3.'),
    position: z
      .enum(TOC_POSITIONS)
      .default('start')
      .describe('Where it goes: before the body ("start", then a page break) or after it ("end"). A <quire-toc> element in the page wins.'),
  })
  .describe(
    'Extension: a table of contents of the headings (h1 to h<depth>) with the pages they print on, links to them, dotted leaders; ' +
      'its own pages counted, the numbers those of the printed document (page_ranges applied). A <quire-toc> element in the page ' +
      'asks for one too and marks where it goes (attributes title and depth override these). Styled through the quire-toc-* classes.',
  );

export type TocOptions = z.output<typeof tocSchema>;

export const tocFields = {
  toc: tocSchema.optional(),
};
