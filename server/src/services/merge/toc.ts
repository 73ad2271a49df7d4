// A merge's table of contents (options.toc of POST /v1/pdf/merge): every source is a chapter,
// titled by its own title field, else its PDF's title, else its file name, else "Document N";
// one TOC page (or more) goes first, numbered across the merged document. Its links point at
// placeholder URLs that the merge turns into links to each chapter's first page (pdf/merge.ts).

import { pageCountOf, readLayoutInWorker } from '../../pdf/finisher.ts';
import { selectPages } from '../../pdf/page-list.ts';
import { DEFAULT_PDF_OPTIONS } from '../../render/pdf-options.ts';
import type { Renderer } from '../../render/renderer.ts';
import type { Tenant } from '../../render/render-slots.ts';
import { escapeHtml } from '../../render/template.ts';
import { TOC_CSS } from '../../render/toc-script.ts';

/** Where a TOC link of a merge points before the merge makes it open chapter N (0-based). */
export const CHAPTER_LINK_PREFIX = 'https://chapter.quire.invalid/';

export interface MergeToc {
  title: string;
}

/** A joined part as the TOC sees it: its bytes, its page list, the title it was given and its file's name. */
export interface ChapterPart {
  pdf: Uint8Array;
  pages?: string;
  title?: string;
  name?: string;
}

/** The chapters' titles and how many pages each keeps, in order. */
export async function chaptersOf(parts: ChapterPart[]): Promise<{ title: string; pages: number }[]> {
  return Promise.all(
    parts.map(async (part, index) => {
      const layout = await readLayoutInWorker(part.pdf, `sources[${index}]`);
      const count = layout.pages.length;
      const kept = part.pages ? selectPages(part.pages, count).indexes.length : count;
      return { title: part.title || layout.title || part.name || `Document ${index + 1}`, pages: kept };
    }),
  );
}

/**
 * Prints the TOC page(s) of the chapters. The numbers assume the TOC takes one page; when it takes
 * more it is printed once more with that count (the number slots have a fixed width, so the count
 * does not change again).
 */
export async function printMergeToc(
  renderer: Pick<Renderer, 'render'>,
  toc: MergeToc,
  chapters: { title: string; pages: number }[],
  tenant?: Tenant,
): Promise<Uint8Array> {
  const print = (tocPages: number) =>
    renderer.render({ source: { kind: 'html', html: tocHtml(toc, chapters, tocPages) }, options: { ...DEFAULT_PDF_OPTIONS, wait_until: 'load' }, tenant });
  const first = await print(1);
  const count = await pageCountOf(first);
  return count === 1 ? first : print(count);
}

function tocHtml(toc: MergeToc, chapters: { title: string; pages: number }[], tocPages: number): string {
  let next = tocPages + 1;
  const entries = chapters.map((chapter, index) => {
    const page = next;
    next += chapter.pages;
    return (
      `<li class="quire-toc-entry quire-toc-level-1"><a class="quire-toc-link" href="${CHAPTER_LINK_PREFIX}${index}">` +
      `<span class="quire-toc-text">${escapeHtml(chapter.title)}</span><span class="quire-toc-leader"></span><span class="quire-toc-page">${page}</span></a></li>`
    );
  });
  const title = toc.title === '' ? '' : `<p class="quire-toc-title">${escapeHtml(toc.title)}</p>`;
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(toc.title || 'Contents')}</title>` +
    `<style>${TOC_CSS} body { margin: 0; font: 11pt Arial, "Liberation Sans", sans-serif; } :where(.quire-toc-level-1) { font-weight: normal; }</style></head>` +
    `<body><nav class="quire-toc">${title}<ol class="quire-toc-list">${entries.join('')}</ol></nav></body></html>`
  );
}
