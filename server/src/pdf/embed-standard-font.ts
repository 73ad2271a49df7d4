// PDF/A wants every font embedded; the toolbox draws watermark text in Helvetica, one of the
// standard fonts a reader supplies itself. Under PDF/A that font becomes Liberation Sans
// (metric-compatible with Helvetica, so the text keeps its place and the widths stay true),
// embedded whole from the copy pdfjs-dist (a dependency) ships: about 100 KB more in a
// watermarked archival file (docs/decisions.md, "PDF/A").

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type PDFDict, type PDFDocument, PDFName, PDFNumber, StandardFontEmbedder, StandardFonts } from '@cantoo/pdf-lib';
import { usedFonts } from './pdf-objects.ts';

// WinAnsiEncoding's codes 128-159 (the rest are Latin-1): ISO 32000-1 Annex D.
const WIN_ANSI_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

let program: Uint8Array | undefined;

function liberationSans(): Uint8Array {
  if (!program) {
    const pdfjs = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    program = new Uint8Array(readFileSync(path.join(pdfjs, 'standard_fonts', 'LiberationSans-Regular.ttf')));
  }
  return program;
}

/** Replaces each unembedded Helvetica with an embedded Liberation Sans (answers whether there was one); other fonts are left to the checker. */
export async function embedStandardFonts(doc: PDFDocument): Promise<boolean> {
  const helvetica = usedFonts(doc).filter(
    (font) =>
      font.lookup(PDFName.of('Subtype')) === PDFName.of('Type1') &&
      font.lookup(PDFName.of('BaseFont')) === PDFName.of('Helvetica') &&
      !font.has(PDFName.of('FontDescriptor')),
  );
  if (helvetica.length === 0) return false;
  // Helvetica's metrics only: doc.embedFont would also write an unused Helvetica font object.
  const metrics = StandardFontEmbedder.for(StandardFonts.Helvetica as unknown as Parameters<typeof StandardFontEmbedder.for>[0]);
  const widths: number[] = [];
  for (let code = 32; code <= 255; code++) {
    const char = code >= 128 && code < 160 ? WIN_ANSI_HIGH[code - 128]! : String.fromCharCode(code);
    widths.push(/[\u0080-\u009f]/.test(char) ? 0 : Math.round(metrics.widthOfTextAtSize(char, 1000)));
  }
  const descriptor = doc.context.register(
    doc.context.obj({
      Type: 'FontDescriptor',
      FontName: 'LiberationSans',
      Flags: 32,
      FontBBox: [-544, -303, 1302, 980],
      ItalicAngle: 0,
      Ascent: 905,
      Descent: -212,
      CapHeight: 729,
      StemV: 80,
      FontFile2: doc.context.register(doc.context.flateStream(liberationSans(), { Length1: liberationSans().length })),
    }),
  );
  const widthArray = doc.context.register(doc.context.obj(widths));
  for (const font of helvetica) replaceWith(font, descriptor, widthArray);
  return true;
}

function replaceWith(font: PDFDict, descriptor: ReturnType<PDFDocument['context']['register']>, widths: ReturnType<PDFDocument['context']['register']>): void {
  font.set(PDFName.of('Subtype'), PDFName.of('TrueType'));
  font.set(PDFName.of('BaseFont'), PDFName.of('LiberationSans'));
  font.set(PDFName.of('Encoding'), PDFName.of('WinAnsiEncoding'));
  font.set(PDFName.of('FirstChar'), PDFNumber.of(32));
  font.set(PDFName.of('LastChar'), PDFNumber.of(255));
  font.set(PDFName.of('Widths'), widths);
  font.set(PDFName.of('FontDescriptor'), descriptor);
}
