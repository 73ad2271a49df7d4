// Parses a PDF that readPdfInput (services/pdf-tools/pdf-input.ts) has already opened with qpdf (decrypted,
// repaired, within the limits) with pdf-lib, for reading what is in it (inspect.ts).

import { ParseSpeeds, PDFDocument } from '@cantoo/pdf-lib';
import { PdfInputError } from './pdf-errors.ts';

/** The parsed document; a file pdf-lib cannot read is a PdfInputError naming `field`. */
export async function readPdf(bytes: Uint8Array, field: string): Promise<PDFDocument> {
  try {
    // Fastest: this runs on a worker thread, where yielding between objects (pdf-lib's default) only costs time.
    // updateMetadata false: reading must not touch Producer or ModDate. ignoreEncryption: only to read an
    // encrypted original's /Encrypt dictionary (inspect-encryption.ts), never its strings.
    return await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true, parseSpeed: ParseSpeeds.Fastest });
  } catch (error) {
    throw new PdfInputError('unreadable', field, `${field} cannot be read: ${(error as Error).message}`);
  }
}
