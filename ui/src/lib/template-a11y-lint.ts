// The studio's accessibility warnings on a template's HTML (issue 42 item 4): images without alt
// text, tables without header cells, skipped heading levels, a missing <html lang> or <title>.
// The browser's DOMParser reads the structure (outlineOf); the warnings come from that outline by a
// pure function (accessibilityProblems), so they are unit-tested without a browser.

import type { Problem } from './template-lint.ts';

/** What the warnings need from a parsed template, elements in document order. */
export interface HtmlOutline {
  lang: string;
  title: string;
  images: { hasAlt: boolean }[];
  tables: { hasTh: boolean }[];
  headings: number[];
}

/** Reads a parsed document (DOMParser, 'text/html') into the outline the warnings are made from. */
export function outlineOf(doc: Document): HtmlOutline {
  return {
    lang: doc.documentElement.getAttribute('lang')?.trim() ?? '',
    title: doc.title.trim(),
    images: [...doc.getElementsByTagName('img')].map((img) => ({ hasAlt: img.hasAttribute('alt') })),
    tables: [...doc.getElementsByTagName('table')].map((table) => ({ hasTh: table.getElementsByTagName('th').length > 0 })),
    headings: [...doc.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((heading) => Number(heading.tagName[1])),
  };
}

/** The warnings for a template's HTML; none where there is no DOMParser (outside a browser). */
export function htmlProblems(html: string): Problem[] {
  if (typeof DOMParser === 'undefined') return [];
  return accessibilityProblems(html, outlineOf(new DOMParser().parseFromString(html, 'text/html')));
}

export function accessibilityProblems(html: string, outline: HtmlOutline): Problem[] {
  const problems: Problem[] = [];
  const warn = (at: Span, message: string) => problems.push({ ...at, severity: 'warning', message });
  const images = startTags(html, 'img');
  outline.images.forEach((image, index) => {
    if (!image.hasAlt)
      warn(
        images[index] ?? START,
        'This image has no alt text: a screen reader cannot say what it shows. Add alt="what the image shows", or alt="" if it is only decoration.',
      );
  });
  const tables = startTags(html, 'table');
  outline.tables.forEach((table, index) => {
    if (!table.hasTh)
      warn(
        tables[index] ?? START,
        'This table has no header cells: a screen reader cannot say which column a value belongs to. Write the header row with <th> instead of <td>.',
      );
  });
  headingProblems(html, outline.headings, warn);
  const htmlTag = startTags(html, 'html')[0];
  // A template without <html> is rendered as the body of a page Chromium makes, which has neither.
  const fragment = htmlTag ? '' : ' The template has no <html> element: wrap it in <html lang="en"><head><title>…</title></head><body>…</body></html>.';
  if (!outline.lang)
    warn(
      htmlTag ?? START,
      `The document's language is not set: a screen reader may read it in the wrong language. Add lang="en" (or your language) to <html>.${fragment}`,
    );
  if (!outline.title)
    warn(
      startTags(html, 'title')[0] ?? startTags(html, 'head')[0] ?? htmlTag ?? START,
      `The document has no title: a PDF viewer shows the file name instead. Add <title>Invoice {{number}}</title> (or similar) in <head>.${fragment}`,
    );
  return problems;
}

/**
 * Levels must go down one at a time (h2 under h1, not h3), and the first heading must be an h1:
 * the whole template is the document, and PDF/UA (Matterhorn 14-002, 14-003) fails both.
 */
function headingProblems(html: string, levels: number[], warn: (at: Span, message: string) => void): void {
  const spans = headingTags(html);
  let previous = 0;
  levels.forEach((level, index) => {
    const at = spans[index] ?? START;
    if (previous === 0 && level > 1)
      warn(at, `The first heading is an <h${level}>: a document's headings start at <h1>. Make this heading an <h1>, or add an <h1> before it.`);
    else if (level > previous + 1)
      warn(at, `This <h${level}> skips a level after an <h${previous}>: screen reader users navigate by heading levels. Make it an <h${previous + 1}>.`);
    previous = level;
  });
}

interface Span {
  from: number;
  to: number;
}

const START: Span = { from: 0, to: 0 };

/** Where each start tag of the name is, in source order, leaving out HTML and template comments. */
function startTags(html: string, name: string): Span[] {
  return spansOf(html, new RegExp(`<${name}(?=[\\s/>])[^>]*>?`, 'gi'));
}

function headingTags(html: string): Span[] {
  return spansOf(html, /<h[1-6](?=[\s/>])[^>]*>?/gi);
}

function spansOf(html: string, pattern: RegExp): Span[] {
  const text = withoutComments(html);
  return [...text.matchAll(pattern)].map((match) => ({ from: match.index, to: match.index + match[0].length }));
}

/** The same text with comments blanked to spaces, so offsets still point into the template. */
function withoutComments(html: string): string {
  return html.replace(/<!--[\s\S]*?(?:-->|$)|\{\{![\s\S]*?\}\}/g, (comment) => ' '.repeat(comment.length));
}
