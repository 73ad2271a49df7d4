// The table of contents pass of a render (options.toc or a <quire-toc> element): the entries go
// in before the header and footer are measured, then one draft print tells the page of every
// heading (the PDF's named destinations, pdf/named-destinations.ts) and the numbers are filled
// in; the render's own print follows. Why a draft print: docs/decisions.md, "Table of contents:
// numbers read from a draft print".

import type { Protocol } from 'puppeteer-core';
import { pagesOfDestinationsInWorker } from '../pdf/finisher.ts';
import type { CdpPage } from './cdp-page.ts';
import { inPage } from './header-plan.ts';
import type { PdfOptions } from './pdf-options.ts';
import type { RenderSource } from './render-source.ts';
import { tocSchema } from './toc-options.ts';
import { FILL_TOC, INSERT_TOC, MAX_TOC_ENTRIES, TOC_CSS } from './toc-script.ts';

const DEFAULT_TOC = tocSchema.parse({});
const FIELD = 'options.toc';
const WHAT = 'the table of contents';

/** Whether the render asks for a table of contents: options.toc, or a <quire-toc> element in its HTML. */
export function wantsToc(source: RenderSource, options: Pick<PdfOptions, 'toc'>): boolean {
  return options.toc !== undefined || (source.kind === 'html' && /<quire-toc[\s/>]/i.test(source.html));
}

/** Puts the entries into the page, numbers not yet filled; answers the destination names of the headings, in order. */
export async function insertToc(page: CdpPage, toc: PdfOptions['toc']): Promise<string[]> {
  const args = { ...DEFAULT_TOC, ...toc, css: TOC_CSS, max: MAX_TOC_ENTRIES };
  return (await inPage<string[] | null>(page, `${INSERT_TOC}(${JSON.stringify(args)})`, FIELD, WHAT)) ?? [];
}

/**
 * Prints a draft with the render's own print parameters (paper, margins with the header's room,
 * page_ranges), reads on which printed page each heading's destination landed and fills in the
 * numbers. Filling changes no box's size, so the render's print lays out the same pages.
 * Answers the numbers (null: the heading's page was not printed).
 */
export async function numberToc(page: CdpPage, names: string[], params: Protocol.Page.PrintToPDFRequest): Promise<(number | null)[]> {
  if (names.length === 0) return [];
  const draft = await page.print(params);
  const numbers = (await pagesOfDestinationsInWorker(draft, names)).map((index) => (index < 0 ? null : index + 1));
  await inPage<number>(page, `${FILL_TOC}(${JSON.stringify(numbers)})`, FIELD, WHAT);
  return numbers;
}
