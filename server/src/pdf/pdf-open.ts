// Opens a PDF someone else wrote with pdf-lib for reading: decrypted with the caller's password
// (or the empty one, which opens files that are only restricted), every failure a PdfInputError
// naming the field. Nothing here writes a PDF.

import { ParseSpeeds, PDFDocument } from '@cantoo/pdf-lib';
import { encryptionOf, type PdfEncryption } from './inspect-encryption.ts';
import { PdfInputError } from './pdf-input-errors.ts';

/** The first bytes of a file: a PDF says %PDF- within its first kilobyte (ISO 32000-1, 7.5.2 allows leading junk). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1').includes('%PDF-');
}

/**
 * The parsed document and its encryption (null when not encrypted); throws PdfInputError when it
 * is not a PDF, is damaged, or needs a password it was not given.
 */
export async function openPdf(bytes: Uint8Array, field: string, password?: string): Promise<{ document: PDFDocument; encryption: PdfEncryption | null }> {
  if (!looksLikePdf(bytes)) throw new PdfInputError('not_pdf', field, `${field} is not a PDF (no %PDF- header)`);
  let document: PDFDocument;
  try {
    // updateMetadata false: reading must not touch Producer or ModDate.
    // Fastest: this runs on a worker thread, where yielding between objects (pdf-lib's default) only costs time.
    document = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true, parseSpeed: ParseSpeeds.Fastest });
  } catch (error) {
    throw new PdfInputError('damaged', field, `${field} is a damaged PDF that cannot be read: ${(error as Error).message}`);
  }
  if (!document.isEncrypted) return { document, encryption: null };
  // The decrypted reading has no /Encrypt in its trailer any more: the first reading tells how it was encrypted.
  const encryption = encryptionOf(document);
  try {
    const decrypted = await PDFDocument.load(bytes, { updateMetadata: false, password: password ?? '', parseSpeed: ParseSpeeds.Fastest });
    return { document: decrypted, encryption };
  } catch (error) {
    const message = (error as Error).message;
    if (message === 'NEEDS PASSWORD' || (message === 'Password incorrect' && !password))
      throw new PdfInputError('password_required', field, `${field} is encrypted: send its password in password`);
    if (message === 'Password incorrect') throw new PdfInputError('password_incorrect', field, `password does not open ${field}`);
    throw new PdfInputError('damaged', field, `${field} is encrypted in a way we cannot read: ${message}`);
  }
}
