// The page steps that keep, drop, reorder, repeat and turn pages (select, delete, reorder,
// duplicate, rotate): each works out the page numbers from its page list and the document's page
// count, then one qpdf pass writes them. qpdf keeps form fields, links and bookmarks of kept pages.

import { PdfStepError } from '../pdf-errors.ts';
import { selectPages } from '../page-list.ts';
import type { TransformStep } from './steps.ts';
import { qpdf, qpdfPageList } from './qpdf-file.ts';

type PageStep = Extract<TransformStep, { op: 'select' | 'delete' | 'reorder' | 'duplicate' }>;

/** The 1-based pages a list names, refusing a page past the end. */
export function namedPages(list: string, count: number, field: string): number[] {
  const { indexes, missing } = selectPages(list, count);
  if (missing !== undefined)
    throw new PdfStepError(field, `${field} names page ${missing}, but the document has ${count} page${count === 1 ? '' : 's'} at that step`);
  return indexes.map((index) => index + 1);
}

/** The document's pages after a select, delete, reorder or duplicate step, as 1-based numbers in order. */
export function pagesAfter(step: PageStep, count: number, field: string): number[] {
  const all = Array.from({ length: count }, (_, index) => index + 1);
  switch (step.op) {
    case 'select':
      return namedPages(step.pages, count, `${field}.pages`);
    case 'delete': {
      const gone = new Set(namedPages(step.pages, count, `${field}.pages`));
      const kept = all.filter((page) => !gone.has(page));
      if (kept.length === 0) throw new PdfStepError(`${field}.pages`, `${field}.pages would take out every page`);
      return kept;
    }
    case 'reorder': {
      const order = namedPages(step.order, count, `${field}.order`);
      const seen = new Set(order);
      const missing = all.find((page) => !seen.has(page));
      if (order.length !== count || missing !== undefined)
        throw new PdfStepError(
          `${field}.order`,
          `${field}.order must name each of the ${count} pages once${missing !== undefined ? ` (page ${missing} is missing)` : ' (a page is named twice)'}; select keeps some pages, duplicate repeats them`,
        );
      return order;
    }
    case 'duplicate': {
      const copied = new Set(namedPages(step.pages, count, `${field}.pages`));
      return all.flatMap((page) => (copied.has(page) ? Array.from({ length: step.copies + 1 }, () => page) : [page]));
    }
  }
}

/** The document with only `pages`, in that order (repeats are copies). */
export function keepPages(pdf: Uint8Array, pages: number[], field: string): Promise<Uint8Array> {
  return qpdf(pdf, field, ['--pages', '.', qpdfPageList(pages), '--']);
}

/** The document with `pages` (default: all) turned by `angle` degrees clockwise on top of their rotation. */
export function rotatePages(pdf: Uint8Array, angle: number, pages: number[] | undefined, field: string): Promise<Uint8Array> {
  const turn = ((angle % 360) + 360) % 360;
  if (turn === 0) return Promise.resolve(pdf);
  return qpdf(pdf, field, [`--rotate=+${turn}${pages ? `:${qpdfPageList(pages)}` : ''}`]);
}
