// The PDF/UA-1 conditions on the fonts the pages use: embedded programs (31-009), a ToUnicode map
// where the encoding does not give Unicode by itself (31-027), and ToUnicode maps that give a
// character no usable value (10-001, read as the union of 31-028 and 31-029: U+0000, U+FEFF, U+FFFE).

import { PDFDict, type PDFDocument } from '@cantoo/pdf-lib';
import { usedFonts } from '../pdf-objects.ts';
import { arrayAt, dictAt, entry, nameAt, nameOf, streamBytes } from '../pdf-values.ts';
import type { UaCondition, UaFinding } from './conditions.ts';

export const FONT_CONDITIONS: UaCondition[] = ['31-009', '31-027', '10-001'];

const UNICODE_ENCODINGS = new Set(['MacRomanEncoding', 'MacExpertEncoding', 'WinAnsiEncoding']);
const UNICODE_COLLECTIONS = new Set(['Adobe-GB1', 'Adobe-CNS1', 'Adobe-Japan1', 'Adobe-Korea1']);

export function checkFonts(doc: PDFDocument): UaFinding[] {
  const findings: UaFinding[] = [];
  for (const font of usedFonts(doc)) {
    const name = nameAt(doc, font, 'BaseFont') ?? nameAt(doc, font, 'Subtype') ?? 'a font';
    const subtype = nameAt(doc, font, 'Subtype');
    const descendant = subtype === 'Type0' ? arrayAt(doc, font, 'DescendantFonts')?.lookup(0) : undefined;
    const program = descendant instanceof PDFDict ? descendant : font;
    const descriptor = dictAt(doc, program, 'FontDescriptor');
    const embedded = ['FontFile', 'FontFile2', 'FontFile3'].some((key) => entry(doc, descriptor, key) !== undefined);
    if (subtype !== 'Type3' && !embedded) findings.push({ condition: '31-009', detail: `${name} is not embedded` });
    const toUnicode = entry(doc, font, 'ToUnicode');
    if (!toUnicode && !mapsByEncoding(doc, font, subtype, program)) findings.push({ condition: '31-027', detail: `${name} has no ToUnicode map` });
    const cmap = toUnicode ? streamBytes(toUnicode) : undefined;
    const bad = cmap ? unusableValue(Buffer.from(cmap).toString('latin1')) : undefined;
    if (bad) findings.push({ condition: '10-001', detail: `${name}'s ToUnicode map gives U+${bad}` });
  }
  return findings;
}

/** Fonts whose characters map to Unicode without a ToUnicode map (ISO 14289-1 7.21.7). */
function mapsByEncoding(doc: PDFDocument, font: PDFDict, subtype: string | undefined, program: PDFDict): boolean {
  const encoding = entry(doc, font, 'Encoding');
  const encodingName = nameOf(encoding) ?? (encoding instanceof PDFDict ? nameAt(doc, encoding, 'BaseEncoding') : undefined);
  if (encodingName && UNICODE_ENCODINGS.has(encodingName)) return true;
  if (subtype === 'Type0') {
    const info = dictAt(doc, program, 'CIDSystemInfo');
    const collection = `${entry(doc, info, 'Registry')?.toString().replace(/[()]/g, '')}-${entry(doc, info, 'Ordering')?.toString().replace(/[()]/g, '')}`;
    return UNICODE_COLLECTIONS.has(collection);
  }
  if (subtype === 'TrueType') {
    const flags = Number(entry(doc, dictAt(doc, font, 'FontDescriptor'), 'Flags')?.toString() ?? 0);
    return (flags & 4) === 0; // non-symbolic
  }
  // Type 1 and Type 3 fonts with glyph names from the Adobe Glyph List also qualify; that needs the
  // font program's names, so a standard-14 font without an encoding is taken as mapping.
  return subtype === 'Type1' && !entry(doc, dictAt(doc, font, 'FontDescriptor'), 'FontFile');
}

/** The first destination value in a CMap's bfchar/bfrange entries that is 0000, FEFF or FFFE. */
function unusableValue(cmap: string): string | undefined {
  const ENTRY = { bfchar: /<[0-9A-Fa-f]+>\s*<([0-9A-Fa-f]*)>/g, bfrange: /<[0-9A-Fa-f]+>\s*<[0-9A-Fa-f]+>\s*(<[0-9A-Fa-f]*>|\[[^\]]*\])/g };
  for (const section of cmap.matchAll(/begin(bfchar|bfrange)([\s\S]*?)end\1/g)) {
    for (const match of section[2]!.matchAll(ENTRY[section[1] as 'bfchar' | 'bfrange'])) {
      for (const value of match[1]!.match(/[0-9A-Fa-f]+/g) ?? ['']) {
        if (['', '0000', 'FEFF', 'FFFE'].includes(value.toUpperCase())) return value.toUpperCase() || '(empty)';
      }
    }
  }
  return undefined;
}
