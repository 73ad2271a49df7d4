// Quire's own elements in a document a render loads (<quire-barcode>, <quire-chart>: docs/api.md#barcodes-and-charts),
// drawn as SVG before Chromium sees the HTML, for every source made of HTML: html, Markdown and templates.
// The drawings live in render/quire-elements/; this keeps the 5 MB ceiling on what they make.

import { expandQuireElements } from '../../render/quire-elements/expand.ts';
import { checkHtmlSize, MAX_HTML_BYTES } from './source-rules.ts';

/** The HTML with its elements drawn (400 element_invalid naming one that cannot be), within the 5 MB ceiling (413, drawing stops there). */
export async function drawElements(html: string, data?: unknown): Promise<string> {
  return checkHtmlSize(await expandQuireElements(html, { data, maxLength: MAX_HTML_BYTES }));
}
