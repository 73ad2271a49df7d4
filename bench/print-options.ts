// The benchmark baselines (a warm puppeteer page, a browser per render) print through puppeteer's
// page.pdf(); this gives them the same paper, margins and flags the service's own print uses.

import type { PDFOptions } from 'puppeteer-core';
import { parseMargin, type PdfOptions } from '../server/src/render/pdf-options.ts';

/**
 * Puppeteer's page.pdf() options for a complete PdfOptions (margins converted from any CSS unit),
 * so the puppeteer baselines print what the service prints (server/src/render/print-params.ts).
 */
export function toPrintOptions(options: PdfOptions): PDFOptions {
  const margins = parseMargin(options.margin)!;
  const hasHeaderOrFooter = options.header_template !== undefined || options.footer_template !== undefined;
  return {
    ...(options.width !== undefined && options.height !== undefined ? { width: options.width, height: options.height } : { format: options.format }),
    landscape: options.landscape,
    margin: { top: `${margins.top}px`, right: `${margins.right}px`, bottom: `${margins.bottom}px`, left: `${margins.left}px` },
    printBackground: options.print_background,
    scale: options.scale,
    pageRanges: options.page_ranges?.replace(/\s+/g, '') ?? '',
    preferCSSPageSize: options.prefer_css_page_size,
    displayHeaderFooter: hasHeaderOrFooter,
    // Chromium prints its own default header/footer when only one side is given: blank the other.
    headerTemplate: hasHeaderOrFooter ? (options.header_template ?? '<span></span>') : undefined,
    footerTemplate: hasHeaderOrFooter ? (options.footer_template ?? '<span></span>') : undefined,
    tagged: options.tagged,
    outline: options.outline,
    timeout: 0,
  };
}
