// Page lists such as "1-3, 5" or "4-": one syntax for options.page_ranges, watermark.pages and
// the page_ranges of a merge source, as a zod schema and as the page indexes it selects.

import { z } from 'zod';

export const PAGE_LIST = /^\s*\d+\s*(-\s*\d*\s*)?(,\s*\d+\s*(-\s*\d*\s*)?)*$/;

/** Whether every page of a (syntactically valid) range list is 1 or more and no range runs backwards. */
export function hasOrderedPages(ranges: string): boolean {
  return ranges.split(',').every((entry) => {
    const [from, to] = entry.split('-').map((part) => part.trim());
    const first = Number(from);
    return first >= 1 && (to === undefined || to === '' || Number(to) >= first);
  });
}

/** A page list as a request gives it; `what` ends the description. */
export function pageListSchema(what: string) {
  return (
    z
      .string()
      .max(1000)
      .regex(PAGE_LIST, { message: 'must be a list of pages and ranges such as "1-3, 5"', abort: true })
      // Chromium answers page 0 and backwards ranges with the same error as pages past the end.
      .refine(hasOrderedPages, { message: 'must count pages from 1, and each range must not run backwards (as in "1-3, 5")' })
      .describe(`Pages such as "1-3, 5" ("4-" runs to the end). ${what}`)
  );
}

/**
 * The 0-based page indexes a valid list selects in a document of pageCount pages, in the order
 * given (repeats kept), and the first page number past the end if the list names one.
 */
export function selectPages(list: string, pageCount: number): { indexes: number[]; missing?: number } {
  const indexes: number[] = [];
  let missing: number | undefined;
  for (const entry of list.split(',')) {
    const [from, to] = entry.split('-').map((part) => part.trim());
    const first = Number(from);
    const last = to === undefined ? first : to === '' ? Math.max(first, pageCount) : Number(to);
    if (last > pageCount) missing ??= Math.max(first, pageCount + 1);
    for (let page = first; page <= Math.min(last, pageCount); page++) indexes.push(page - 1);
  }
  return { indexes, missing };
}
