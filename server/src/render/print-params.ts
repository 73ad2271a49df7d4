// A complete PdfOptions as the parameters of CDP's Page.printToPDF (inches, booleans, templates).
// The renderer calls the protocol directly: puppeteer's page.pdf() streams the result back in
// chunks, which costs several round trips per render.

import type { Protocol } from 'puppeteer-core';
import { paperSizePoints, parseMargin, type PdfOptions } from './pdf-options.ts';

const CSS_PX_PER_INCH = 96;

export function toPrintToPdfParams(options: PdfOptions): Protocol.Page.PrintToPDFRequest {
  const paper = paperSizePoints(options)!;
  const margins = parseMargin(options.margin)!;
  const hasHeaderOrFooter = options.header_template !== undefined || options.footer_template !== undefined;
  return {
    // Chromium swaps width and height itself when landscape is set.
    paperWidth: paper.width / 72,
    paperHeight: paper.height / 72,
    landscape: options.landscape,
    marginTop: margins.top / CSS_PX_PER_INCH,
    marginRight: margins.right / CSS_PX_PER_INCH,
    marginBottom: margins.bottom / CSS_PX_PER_INCH,
    marginLeft: margins.left / CSS_PX_PER_INCH,
    printBackground: options.print_background,
    scale: options.scale,
    pageRanges: options.page_ranges?.replace(/\s+/g, '') ?? '',
    preferCSSPageSize: options.prefer_css_page_size,
    displayHeaderFooter: hasHeaderOrFooter,
    // Chromium prints its own default header/footer when only one side is given: blank the other.
    headerTemplate: hasHeaderOrFooter ? (options.header_template ?? '<span></span>') : '',
    footerTemplate: hasHeaderOrFooter ? (options.footer_template ?? '<span></span>') : '',
    // Chromium builds the outline from the tagged structure of the headings, and PDF/UA starts from its tags: both need a tagged PDF.
    generateTaggedPDF: options.tagged || options.outline || options.pdf_ua !== undefined,
    generateDocumentOutline: options.outline,
    transferMode: 'ReturnAsBase64',
  };
}
