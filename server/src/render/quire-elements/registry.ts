// The registry of Quire's own elements: a tag name and the function that draws it as SVG. A new
// element (a payment code, a chart kind) is one entry here; render/quire-elements/expand.ts finds
// them in a document and puts their drawings in place before Chromium sees the HTML.

import { drawBarcode } from './barcode.ts';
import { drawChart } from './chart.ts';
import { drawPaymentCode, isPaymentCode } from './payment-code.ts';

/** What a drawer is given: the element's attributes and text content (character references decoded), and the render's template data. */
export interface ElementInput {
  attributes: Record<string, string>;
  content: string;
  data?: unknown;
}

/** Draws one element as an <svg>; throws ElementAttributeError (./errors.ts) naming the attribute at fault. */
export type ElementDrawer = (input: ElementInput) => Promise<string>;

/**
 * The elements a document may use. To add one (a payment code: `(attributes) => Promise<svg>`):
 * an entry here whose drawer throws ElementAttributeError(attribute, reason) for what it refuses
 * (anything else is a 500), draws heavy work on the drawing thread (drawing-pool.ts) and puts its
 * SVG through frameSvg (svg-frame.ts) so width, height, class and the accessible name work alike.
 */
export const QUIRE_ELEMENTS: ReadonlyMap<string, ElementDrawer> = new Map<string, ElementDrawer>([
  // type epc-qr and swiss-qr-bill are payment codes (payments/), drawn at their specified size.
  ['quire-barcode', ({ attributes }) => (isPaymentCode(attributes.type) ? drawPaymentCode(attributes) : drawBarcode(attributes))],
  ['quire-chart', drawChart],
]);
