// Small readers of pdf-lib values for the inspection modules (inspect*.ts): follow a reference,
// read a name, a text string, a number, a stream's decoded bytes. Each answers undefined for the
// wrong kind. (pdf-objects.ts walks whole structures for PDF/A.)

import {
  decodePDFRawStream,
  PDFArray,
  PDFBool,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  type PDFDocument,
  type PDFObject,
} from '@cantoo/pdf-lib';

export function resolve(document: PDFDocument, object: PDFObject | undefined): PDFObject | undefined {
  return object instanceof PDFRef ? document.context.lookup(object) : object;
}

/** The value under `key`, references followed. */
export function entry(document: PDFDocument, dict: PDFDict | undefined, key: string): PDFObject | undefined {
  return dict ? resolve(document, dict.get(PDFName.of(key))) : undefined;
}

export function dictAt(document: PDFDocument, dict: PDFDict | undefined, key: string): PDFDict | undefined {
  const value = entry(document, dict, key);
  return value instanceof PDFDict ? value : value instanceof PDFStream ? value.dict : undefined;
}

export function arrayAt(document: PDFDocument, dict: PDFDict | undefined, key: string): PDFArray | undefined {
  const value = entry(document, dict, key);
  return value instanceof PDFArray ? value : undefined;
}

export function nameAt(document: PDFDocument, dict: PDFDict | undefined, key: string): string | undefined {
  return nameOf(entry(document, dict, key));
}

export function nameOf(object: PDFObject | undefined): string | undefined {
  return object instanceof PDFName ? object.decodeText() : undefined;
}

export function textOf(object: PDFObject | undefined): string | undefined {
  if (object instanceof PDFString || object instanceof PDFHexString) return object.decodeText();
  if (object instanceof PDFName) return object.decodeText();
  return undefined;
}

export function textAt(document: PDFDocument, dict: PDFDict | undefined, key: string): string | undefined {
  return textOf(entry(document, dict, key));
}

export function numberAt(document: PDFDocument, dict: PDFDict | undefined, key: string): number | undefined {
  const value = entry(document, dict, key);
  return value instanceof PDFNumber ? value.asNumber() : undefined;
}

export function boolAt(document: PDFDocument, dict: PDFDict | undefined, key: string): boolean | undefined {
  const value = entry(document, dict, key);
  return value instanceof PDFBool ? value.asBoolean() : undefined;
}

/** A stream's bytes with its filters undone (decrypted too when the document was opened with a password); undefined when a filter is unknown. */
export function streamBytes(stream: PDFObject | undefined): Uint8Array | undefined {
  if (!(stream instanceof PDFStream)) return undefined;
  try {
    return stream instanceof PDFRawStream ? decodePDFRawStream(stream).decode() : stream.getContents();
  } catch {
    return undefined;
  }
}
