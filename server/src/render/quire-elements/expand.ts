// Replaces Quire's own elements in a document's HTML by their drawings, before Chromium lays the
// page out: each one found (render/quire-elements/element-scan.ts) is drawn by its registry entry
// and spliced in. The markup put in is ours (the drawers' SVG, attribute values escaped), so
// neither the page's scripts nor template data can use an element to inject any.

import { findElements, lineOf } from './element-scan.ts';
import { DrawingsTooLargeError, ElementAttributeError, ElementInvalidError } from './errors.ts';
import { QUIRE_ELEMENTS, type ElementDrawer } from './registry.ts';

/** At most this many elements per document: each is a trip to the drawing thread and more SVG in the page. */
export const MAX_ELEMENTS = 500;

const ANY_ELEMENT = /<quire-/i;

/** What the expansion reads besides the HTML: the template data charts may use, a ceiling, the elements known. */
export interface ExpandOptions {
  data?: unknown;
  /** Drawing stops, with DrawingsTooLargeError, once the document would be longer than this. */
  maxLength?: number;
  registry?: ReadonlyMap<string, ElementDrawer>;
}

/**
 * The HTML with every registered element replaced by its SVG; the HTML as it was when it has none.
 * Throws ElementInvalidError naming the element, its line and the attribute at fault.
 */
export async function expandQuireElements(html: string, { data, maxLength = Infinity, registry = QUIRE_ELEMENTS }: ExpandOptions = {}): Promise<string> {
  if (!ANY_ELEMENT.test(html)) return html;
  const found = findElements(html, new Set(registry.keys()));
  if (found.length === 0) return html;
  if (found.length > MAX_ELEMENTS) {
    const extra = found[MAX_ELEMENTS]!;
    throw new ElementInvalidError(extra.name, lineOf(html, extra.start), '', `is one element too many: a document may have at most ${MAX_ELEMENTS}`);
  }
  const parts: string[] = [];
  let at = 0;
  let length = 0;
  for (const element of found) {
    let svg: string;
    try {
      svg = await registry.get(element.name)!({ attributes: element.attributes, content: element.content, data });
    } catch (error) {
      if (error instanceof ElementAttributeError) throw new ElementInvalidError(element.name, lineOf(html, element.start), error.attribute, error.reason);
      throw error;
    }
    parts.push(html.slice(at, element.start), svg);
    length += element.start - at + svg.length;
    // Stop at the ceiling rather than draw the rest of a document that cannot be rendered.
    if (length + (html.length - element.end) > maxLength) throw new DrawingsTooLargeError(maxLength);
    at = element.end;
  }
  parts.push(html.slice(at));
  return parts.join('');
}
