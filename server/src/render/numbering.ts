// The page numbers a header or footer shows: a document's own (1..n), or each part's place in a
// merged document, where only a part's kept pages (page_ranges) count.

import type { Numbering } from './header-overlay.ts';

/** A document's own page numbers, 1 to count. */
export function ownNumbering(count: number): Numbering {
  return { pageNumbers: Array.from({ length: count }, (_, index) => index + 1), total: count };
}

/**
 * Per part, its pages' numbers in the merged document: `kept` lists the 0-based pages of each
 * part that the merge keeps, in their order there. A page left out takes the part's first
 * number: it is drawn on, then dropped from the result.
 */
export function numberAcross(parts: { count: number; kept: number[] }[]): Numbering[] {
  const total = parts.reduce((sum, part) => sum + part.kept.length, 0);
  let offset = 0;
  return parts.map(({ count, kept }) => {
    const pageNumbers = Array.from({ length: count }, (_, page) => {
      const at = kept.indexOf(page);
      return offset + (at < 0 ? 0 : at) + 1;
    });
    offset += kept.length;
    return { pageNumbers, total };
  });
}
