// Small readers of pdf-lib objects shared by the inspection modules: follow a reference, read a
// name, a text string, a number, a stream's decoded bytes. Each answers undefined for the wrong kind.

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

/**
 * The pairs of a name tree (ISO 32000-1, 7.9.6: /Names arrays in leaves under /Kids), at most
 * `limit` of them; a node seen twice (a cyclic tree) is not walked again.
 */
export function nameTreeEntries(document: PDFDocument, root: PDFDict | undefined, limit = 10_000): [string, PDFObject][] {
  const out: [string, PDFObject][] = [];
  const seen = new Set<PDFDict>();
  const walk = (node: PDFDict | undefined, depth: number) => {
    if (!node || seen.has(node) || depth > 32 || out.length >= limit) return;
    seen.add(node);
    const names = arrayAt(document, node, 'Names');
    for (let i = 0; names && i + 1 < names.size() && out.length < limit; i += 2)
      out.push([textOf(resolve(document, names.get(i))) ?? '', resolve(document, names.get(i + 1))!]);
    const kids = arrayAt(document, node, 'Kids');
    for (let i = 0; kids && i < kids.size(); i++) {
      const kid = resolve(document, kids.get(i));
      walk(kid instanceof PDFDict ? kid : undefined, depth + 1);
    }
  };
  walk(root, 0);
  return out;
}
