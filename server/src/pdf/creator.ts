// The Creator a PDF Quire makes carries: "Quire", metadata.creator's documented default, where
// Chromium writes its own name (the headless shell "Chromium", full Chromium its user agent) and
// pdf-lib, for a merge, its own. A caller's metadata.creator still wins: finish.ts writes it after
// this. docs/decisions.md#the-creator-is-quire says which routes carry it and which keep their own.

import { literalEnd, PdfSyntaxError } from './pdf-syntax.ts';

export const QUIRE_CREATOR = 'Quire';

/** Skia writes the document information dictionary first, right after the header: object 1. */
const INFO_OBJECT = /^%PDF-\d\.\d\n%[^\n]*\n1 0 obj\n<</;
/** Bytes read for it: a long <title> comes before the Creator. */
const INFO_WITHIN = 16_384;
const KEY = '/Creator ';

/**
 * Names Quire as the Creator of a PDF Chromium printed, in place: the string is overwritten with
 * "(Quire)" and spaces to its old length, so every byte offset (the xref table) stays where it was
 * and nothing is parsed or rewritten (a render that needs no post-processing gets none). A file not
 * laid out as Skia writes it is left as it is. A parenthesis inside a string is escaped ("\("), so
 * "/Creator (" is found only as the key.
 */
export function creatorAsQuire(pdf: Uint8Array): Uint8Array {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const head = bytes.toString('latin1', 0, Math.min(bytes.length, INFO_WITHIN));
  const info = INFO_OBJECT.exec(head);
  if (!info) return pdf;
  const key = head.indexOf(`${KEY}(`, info[0].length);
  const objectEnd = head.indexOf('\nendobj', info[0].length);
  if (key < 0 || objectEnd < 0 || key > objectEnd) return pdf;
  const start = key + KEY.length;
  let end: number;
  try {
    end = literalEnd(head, start);
  } catch (error) {
    if (error instanceof PdfSyntaxError) return pdf;
    throw error;
  }
  const quire = `(${QUIRE_CREATOR})`;
  if (end - start >= quire.length) bytes.write(quire.padEnd(end - start, ' '), start, 'latin1');
  return pdf;
}
