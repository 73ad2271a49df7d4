// Finds Quire's own elements (<quire-barcode>, <quire-chart>, ...) in a document's HTML without a
// DOM: a tolerant walk over tags as the HTML tokenizer sees them, so comments, the raw text of
// script, style, textarea and title, and `<` inside another tag's quoted attribute are never taken
// for an element. Attribute values and content come back with character references decoded.

import MarkdownIt from 'markdown-it';

/** One element found: its name, decoded attributes and content, and where it sits in the HTML. */
export interface FoundElement {
  name: string;
  attributes: Record<string, string>;
  content: string;
  /** Offsets of the whole element in the HTML: [start, end). */
  start: number;
  end: number;
}

// Elements whose content is raw text: a `<quire-...>` inside them is text, as the browser reads it.
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
const TAG_NAME = /[a-zA-Z][^\s/>]*/y;
const TAG_END = /[\s/]*>/y;
const ATTRIBUTE = /[\s/]*([^\s/>"'=][^\s/>"'=]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?/y;

/** Every element of `names` in the HTML, in document order; nested ones are part of their parent's content. */
export function findElements(html: string, names: ReadonlySet<string>): FoundElement[] {
  const found: FoundElement[] = [];
  let at = 0;
  for (;;) {
    const open = html.indexOf('<', at);
    if (open === -1) return found;
    if (html.startsWith('<!--', open)) {
      const close = html.indexOf('-->', open + 4);
      if (close === -1) return found;
      at = close + 3;
      continue;
    }
    const tag = readTag(html, open);
    if (!tag) {
      at = open + 1;
      continue;
    }
    at = tag.end;
    if (tag.closing) continue;
    if (RAW_TEXT.has(tag.name)) {
      at = closeTagAt(html, tag.name, tag.end) ?? html.length;
      continue;
    }
    if (!names.has(tag.name)) continue;
    // Custom elements are never void in HTML; `/>` is taken as empty, as authors of XML expect.
    let content = '';
    let end = tag.end;
    if (!tag.selfClosing) {
      const closeAt = closeTagAt(html, tag.name, tag.end);
      if (closeAt !== undefined) {
        content = html.slice(tag.end, closeAt);
        const gt = html.indexOf('>', closeAt);
        end = gt === -1 ? html.length : gt + 1;
      }
    }
    found.push({ name: tag.name, attributes: tag.attributes, content: decodeReferences(content), start: open, end });
    at = end;
  }
}

interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  attributes: Record<string, string>;
  end: number;
}

/** The tag starting at `open` (a `<`), or undefined when the `<` is text. */
function readTag(html: string, open: number): Tag | undefined {
  TAG_NAME.lastIndex = html[open + 1] === '/' ? open + 2 : open + 1;
  const name = TAG_NAME.exec(html)?.[0].toLowerCase();
  if (!name) return undefined;
  const tag: Tag = { name, closing: html[open + 1] === '/', selfClosing: false, attributes: {}, end: html.length };
  let at = TAG_NAME.lastIndex;
  for (;;) {
    TAG_END.lastIndex = at;
    const gt = TAG_END.exec(html);
    if (gt) return { ...tag, selfClosing: gt[0].includes('/'), end: TAG_END.lastIndex };
    ATTRIBUTE.lastIndex = at;
    const attribute = ATTRIBUTE.exec(html);
    // An unterminated tag runs to the end of the document, as the browser reads it.
    if (!attribute || ATTRIBUTE.lastIndex === at) return tag;
    const key = attribute[1]!.toLowerCase();
    // The first of two same-named attributes wins, as in the browser.
    if (!(key in tag.attributes)) tag.attributes[key] = decodeReferences(attribute[2] ?? attribute[3] ?? attribute[4] ?? '');
    at = ATTRIBUTE.lastIndex;
  }
}

/** Where the next `</name` is, in any letter case (names here are ASCII: raw-text elements and ours). */
function closeTagAt(html: string, name: string, from: number): number | undefined {
  const close = new RegExp(`</${name}(?=[\\s/>]|$)`, 'gi');
  close.lastIndex = from;
  return close.exec(html)?.index;
}

/** The 1-based line an offset is on (error messages only: it walks the text). */
export function lineOf(html: string, offset: number): number {
  let line = 1;
  for (let i = html.indexOf('\n'); i !== -1 && i < offset; i = html.indexOf('\n', i + 1)) line++;
  return line;
}

// markdown-it's utilities carry the HTML5 table of named character references.
const { unescapeAll } = new MarkdownIt().utils;

/** Character references decoded as the browser decodes them in attribute values and text. */
export function decodeReferences(text: string): string {
  return text.includes('&') ? text.replace(/&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/gi, (reference) => unescapeAll(reference)) : text;
}
