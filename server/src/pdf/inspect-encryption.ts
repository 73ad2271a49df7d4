// A PDF's encryption as its /Encrypt dictionary states it (ISO 32000-1, 7.6): the method and key
// length, and the permissions the user password grants (table 22's bits of /P). For inspect.ts.

import { PDFDict, type PDFDocument } from '@cantoo/pdf-lib';
import { dictAt, nameAt, numberAt, resolve } from './pdf-values.ts';

export interface PdfEncryption {
  /** "RC4", "AES-128" or "AES-256" (the standard security handler's methods), else the filter's name. */
  method: string;
  keyBits: number;
  /** /V and /R of the dictionary (algorithm version and revision). */
  version: number;
  revision: number;
  /** What someone who opens it with the user password may do. */
  permissions: {
    print: boolean;
    printHighQuality: boolean;
    modify: boolean;
    copy: boolean;
    annotate: boolean;
    fillForms: boolean;
    extractForAccessibility: boolean;
    assemble: boolean;
  };
}

/** The encryption, or null for a PDF that is not encrypted. */
export function encryptionOf(document: PDFDocument): PdfEncryption | null {
  const encrypt = resolve(document, document.context.trailerInfo.Encrypt);
  if (!(encrypt instanceof PDFDict)) return null;
  const version = numberAt(document, encrypt, 'V') ?? 0;
  const revision = numberAt(document, encrypt, 'R') ?? 0;
  const filter = nameAt(document, encrypt, 'Filter') ?? 'Standard';
  // Version 4 names its method in the standard crypt filter: V2 is RC4, AESV2 is AES-128.
  const cryptFilter = dictAt(document, dictAt(document, encrypt, 'CF'), nameAt(document, encrypt, 'StmF') ?? 'StdCF');
  const cfm = nameAt(document, cryptFilter, 'CFM');
  const method = version >= 5 ? 'AES-256' : version === 4 && cfm === 'AESV2' ? 'AES-128' : filter === 'Standard' ? 'RC4' : filter;
  // A crypt filter's /Length is in bytes by the standard, in bits by some writers.
  const length = numberAt(document, cryptFilter, 'Length');
  const keyBits =
    version >= 5 ? 256 : version === 4 ? (length === undefined ? 128 : length <= 32 ? length * 8 : length) : (numberAt(document, encrypt, 'Length') ?? 40);
  // /P is a signed 32-bit integer; bit n (1-based) grants a right.
  const p = numberAt(document, encrypt, 'P') ?? -1;
  const bit = (n: number) => (p & (1 << (n - 1))) !== 0;
  return {
    method,
    keyBits,
    version,
    revision,
    permissions: {
      print: bit(3),
      // Revision 2 has no bit 12: printing, when allowed, is at full quality.
      printHighQuality: bit(3) && (revision < 3 || bit(12)),
      modify: bit(4),
      copy: bit(5),
      annotate: bit(6),
      fillForms: bit(9) || (revision < 3 && bit(6)),
      extractForAccessibility: bit(10) || revision < 3,
      assemble: bit(11) || (revision < 3 && bit(4)),
    },
  };
}
