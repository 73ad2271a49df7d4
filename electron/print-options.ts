// Page.printToPDF parameters (render/print-params.ts: inches, booleans, templates) as the options
// of Electron's webContents.printToPDF, which Electron prints with where its DevTools protocol
// answers "PrintToPDF is not implemented". Both describe the same Chromium print settings.

import type { Protocol } from 'puppeteer-core';

/** Electron's PrintToPDFOptions, as far as the renderer sets them. */
export interface ElectronPrintOptions {
  landscape: boolean;
  displayHeaderFooter: boolean;
  printBackground: boolean;
  scale: number;
  pageSize: { width: number; height: number };
  margins: { top: number; bottom: number; left: number; right: number };
  pageRanges: string;
  headerTemplate: string;
  footerTemplate: string;
  preferCSSPageSize: boolean;
  generateTaggedPDF: boolean;
  generateDocumentOutline: boolean;
}

/** Same paper, margins (inches both sides), scale, ranges, templates and tagging as the CDP request. */
export function toElectronPrintOptions(params: Protocol.Page.PrintToPDFRequest): ElectronPrintOptions {
  return {
    landscape: params.landscape ?? false,
    displayHeaderFooter: params.displayHeaderFooter ?? false,
    printBackground: params.printBackground ?? false,
    scale: params.scale ?? 1,
    // Electron, like Chromium, swaps width and height itself for landscape.
    pageSize: { width: params.paperWidth ?? 8.5, height: params.paperHeight ?? 11 },
    margins: {
      top: params.marginTop ?? 0,
      bottom: params.marginBottom ?? 0,
      left: params.marginLeft ?? 0,
      right: params.marginRight ?? 0,
    },
    pageRanges: params.pageRanges ?? '',
    headerTemplate: params.headerTemplate ?? '',
    footerTemplate: params.footerTemplate ?? '',
    preferCSSPageSize: params.preferCSSPageSize ?? false,
    generateTaggedPDF: params.generateTaggedPDF ?? false,
    generateDocumentOutline: params.generateDocumentOutline ?? false,
  };
}
