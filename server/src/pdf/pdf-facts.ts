// What a render receipt says about the PDF itself (services/accounts/receipts.ts): its page count, the
// first page's size, and the fonts embedded in it. Chromium writes its font and page dictionaries
// as plain objects, so they are found by scanning the bytes (well under a millisecond); a PDF where
// the scan finds nothing (object streams, as the toolbox's post-processing writes them) is parsed
// with the PDF library the toolbox uses, which costs about 6 ms of CPU for the 2-page invoice:
// 15% of a render, against a receipt's budget of 5% (docs/decisions.md#render-receipts-recorded-only-when-wanted).

import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, type PDFObject } from '@cantoo/pdf-lib';

export interface PdfFont {
  /** The PostScript name without its subset tag ("LiberationSerif-Bold"); null for an unnamed Type 3 font. */
  name: string | null;
  /** Only the glyphs used are embedded (the name carried a six-letter subset tag). */
  subset: boolean;
  /** "TrueType", "TrueType (CID)", "CFF (CID)", "Type 1", "Type 3" ... */
  type: string;
  embedded: boolean;
}

export interface PdfFacts {
  pages: number;
  /** The first page's media box, in points. */
  width: number;
  height: number;
  fonts: PdfFont[];
}

/** Reads the facts (a scan, else a parse); undefined when the PDF cannot be parsed (an encrypted one, say). */
export async function readPdfFacts(pdf: Uint8Array): Promise<PdfFacts | undefined> {
  return scanPdfFacts(pdf) ?? parsePdfFacts(pdf);
}

/** The facts from the PDF's plain objects; undefined when some objects are compressed (object streams) or no page is plain. */
export function scanPdfFacts(pdf: Uint8Array): PdfFacts | undefined {
  // Searched as bytes: only the few objects found are decoded to text.
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  if (bytes.indexOf('/ObjStm') !== -1) return undefined;
  const pages = countPageObjects(pdf);
  const mediaBox = bytes.indexOf('/MediaBox');
  const box =
    mediaBox < 0 ? null : /^\/MediaBox\s*\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]/.exec(bytes.toString('latin1', mediaBox, mediaBox + 120));
  if (pages === null || !box) return undefined;
  const textOf = (from: number, to: number) => bytes.toString('latin1', from, to < 0 ? bytes.length : to);
  const objectText = (ref: string | undefined) => {
    if (!ref) return undefined;
    const start = bytes.indexOf(`\n${ref} 0 obj`);
    return start < 0 ? undefined : textOf(start, bytes.indexOf('endobj', start));
  };
  const fonts: PdfFont[] = [];
  const seen = new Set<string>();
  for (let at = bytes.indexOf('/Type /Font'); at !== -1; at = bytes.indexOf('/Type /Font', at + 1)) {
    // "/Type /FontDescriptor" is a font's description, not a font.
    if (/\w/.test(String.fromCharCode(bytes[at + 11] ?? 32))) continue;
    const object = textOf(bytes.lastIndexOf(' obj', at), bytes.indexOf('endobj', at));
    const subtype = /\/Subtype\s*\/(\w+)/.exec(object)?.[1];
    if (!subtype || subtype.startsWith('CIDFontType')) continue;
    const baseName = /\/BaseFont\s*\/([^\s/<>[\]()]+)/.exec(object)?.[1];
    const name = baseName === undefined ? null : baseName.replace(/^[A-Z]{6}\+/, '');
    const subset = baseName !== undefined && /^[A-Z]{6}\+/.test(baseName);
    let font: PdfFont;
    if (subtype === 'Type3') font = { name, subset, type: 'Type 3', embedded: true };
    else {
      const descendant = subtype === 'Type0' ? objectText(/\/DescendantFonts\s*\[\s*(\d+)\s+0\s+R/.exec(object)?.[1]) : undefined;
      const owner = descendant ?? object;
      const descriptor = objectText(/\/FontDescriptor\s+(\d+)\s+0\s+R/.exec(owner)?.[1]);
      const type = descendant ? (/\/Subtype\s*\/CIDFontType0/.test(descendant) ? 'CFF (CID)' : 'TrueType (CID)') : (TYPE_NAMES[subtype] ?? subtype);
      font = { name, subset, type, embedded: descriptor !== undefined && /\/FontFile[23]?\s/.test(descriptor) };
    }
    const key = `${font.name}|${font.type}`;
    if (font.name !== null && seen.has(key)) continue;
    seen.add(key);
    fonts.push(font);
  }
  const [, x0, y0, x1, y1] = box.map(Number) as [number, number, number, number, number];
  return { pages, width: round(x1 - x0), height: round(y1 - y0), fonts };
}

/** The facts parsed with pdf-lib: any PDF it can read. */
export async function parsePdfFacts(pdf: Uint8Array): Promise<PdfFacts | undefined> {
  let document: PDFDocument;
  try {
    document = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  } catch {
    return undefined;
  }
  const first = document.getPages()[0];
  const { width, height } = first?.getSize() ?? { width: 0, height: 0 };
  return { pages: document.getPageCount(), width: round(width), height: round(height), fonts: fontsOf(document) };
}

/** Every font of a parsed PDF, once per name and type (pdf-lib; also for inspect.ts). */
export function fontsOf(document: PDFDocument): PdfFont[] {
  const fonts: PdfFont[] = [];
  const seen = new Set<string>();
  for (const [, object] of document.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || nameOf(object.get(PDFName.of('Type'))) !== 'Font') continue;
    const subtype = nameOf(object.get(PDFName.of('Subtype')));
    // A composite font's descendant repeats its parent's name: the parent speaks for both.
    if (!subtype || subtype.startsWith('CIDFontType')) continue;
    const font = describeFont(document, object, subtype);
    const key = `${font.name}|${font.type}`;
    if (font.name !== null && seen.has(key)) continue;
    seen.add(key);
    fonts.push(font);
  }
  return fonts;
}

function describeFont(document: PDFDocument, font: PDFDict, subtype: string): PdfFont {
  const baseName = nameOf(font.get(PDFName.of('BaseFont')));
  const subset = baseName !== undefined && /^[A-Z]{6}\+/.test(baseName);
  const name = baseName === undefined ? null : baseName.replace(/^[A-Z]{6}\+/, '');
  if (subtype === 'Type3') return { name, subset, type: 'Type 3', embedded: true };
  let descriptorOwner = font;
  let type = TYPE_NAMES[subtype] ?? subtype;
  if (subtype === 'Type0') {
    const descendants = resolve(document, font.get(PDFName.of('DescendantFonts')));
    const descendant = descendants instanceof PDFArray ? resolve(document, descendants.get(0)) : undefined;
    if (descendant instanceof PDFDict) {
      descriptorOwner = descendant;
      type = nameOf(descendant.get(PDFName.of('Subtype'))) === 'CIDFontType0' ? 'CFF (CID)' : 'TrueType (CID)';
    }
  }
  const descriptor = resolve(document, descriptorOwner.get(PDFName.of('FontDescriptor')));
  const embedded = descriptor instanceof PDFDict && ['FontFile', 'FontFile2', 'FontFile3'].some((key) => descriptor.has(PDFName.of(key)));
  return { name, subset, type, embedded };
}

const TYPE_NAMES: Record<string, string> = { TrueType: 'TrueType', Type1: 'Type 1', MMType1: 'Type 1 (multiple master)' };

function resolve(document: PDFDocument, object: PDFObject | undefined): PDFObject | undefined {
  return object instanceof PDFRef ? document.context.lookup(object) : object;
}

function nameOf(object: PDFObject | undefined): string | undefined {
  return object instanceof PDFName ? object.decodeText() : undefined;
}

function round(points: number): number {
  return Math.round(points * 100) / 100;
}

/**
 * Page dictionaries ("/Type /Page") counted in a PDF's plain objects, whatever the writer's layout;
 * page-count.ts reads Skia's page tree root, which is quicker but only for Chromium's own files.
 */
function countPageObjects(pdf: Uint8Array): number | null {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  let count = 0;
  for (const needle of PAGE_MARKERS) {
    for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length)) {
      // "/Type /Pages" is the page tree, not a page.
      if (bytes[at + needle.length] !== 0x73) count++;
    }
  }
  return count > 0 ? count : null;
}

const PAGE_MARKERS = [Buffer.from('/Type /Page'), Buffer.from('/Type/Page')];
