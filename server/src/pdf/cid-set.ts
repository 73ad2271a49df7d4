// PDF/A-1 (ISO 19005-1 6.3.5) asks every subset CID font to say which CIDs its program holds, in a
// CIDSet stream; Chromium does not write one. For the TrueType CID fonts Chromium embeds (CIDs are
// glyph ids: CIDToGIDMap /Identity), the glyphs present are those with an outline in 'loca'.
// Other fonts are left alone and the checker and validators judge them.

import { PDFArray, PDFDict, PDFName, PDFRawStream, decodePDFRawStream, type PDFDocument } from '@cantoo/pdf-lib';
import { usedFonts } from './pdf-objects.ts';

/** Writes a CIDSet for each subset TrueType CID font that has none. */
export function writeCidSets(doc: PDFDocument): void {
  for (const font of usedFonts(doc)) {
    if (font.lookup(PDFName.of('Subtype')) !== PDFName.of('Type0')) continue;
    const cidFont = font.lookupMaybe(PDFName.of('DescendantFonts'), PDFArray)?.lookup(0);
    if (!(cidFont instanceof PDFDict) || cidFont.lookup(PDFName.of('CIDToGIDMap')) !== PDFName.of('Identity')) continue;
    const descriptor = cidFont.lookup(PDFName.of('FontDescriptor'));
    if (!(descriptor instanceof PDFDict) || descriptor.has(PDFName.of('CIDSet'))) continue;
    const program = descriptor.lookup(PDFName.of('FontFile2'));
    if (!(program instanceof PDFRawStream)) continue;
    const glyphs = presentGlyphs(program.dict.has(PDFName.of('Filter')) ? decodePDFRawStream(program).decode() : program.contents);
    if (!glyphs) continue;
    const bits = new Uint8Array(Math.ceil(glyphs.length / 8));
    glyphs.forEach((present, gid) => {
      if (present) bits[gid >> 3]! |= 0x80 >> (gid & 7);
    });
    descriptor.set(PDFName.of('CIDSet'), doc.context.register(doc.context.flateStream(bits)));
  }
}

/** For each glyph id of a TrueType program, whether it has an outline (glyph 0 always counts); undefined when unreadable. */
export function presentGlyphs(font: Uint8Array): boolean[] | undefined {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  if (font.byteLength < 12) return undefined;
  const tables = new Map<string, number>();
  const count = view.getUint16(4);
  for (let i = 0; i < count && 12 + i * 16 + 16 <= font.byteLength; i++) {
    const record = 12 + i * 16;
    tables.set(String.fromCharCode(...font.subarray(record, record + 4)), view.getUint32(record + 8));
  }
  const [head, maxp, loca] = [tables.get('head'), tables.get('maxp'), tables.get('loca')];
  if (head === undefined || maxp === undefined || loca === undefined) return undefined;
  const long = view.getInt16(head + 50) === 1;
  const glyphs = view.getUint16(maxp + 4);
  const offsetOf = (index: number) => (long ? view.getUint32(loca + index * 4) : view.getUint16(loca + index * 2) * 2);
  if (loca + (glyphs + 1) * (long ? 4 : 2) > font.byteLength) return undefined;
  return Array.from({ length: glyphs }, (_, gid) => gid === 0 || offsetOf(gid + 1) > offsetOf(gid));
}
