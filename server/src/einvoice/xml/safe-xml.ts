// Parses an e-invoice's XML safely: a size bound, and no document type declaration at all, so no
// entity (internal or external) is ever defined or expanded and nothing is fetched. What is left
// is plain namespaced XML, which @xmldom/xmldom reads into a DOM the readers walk.

import { DOMParser } from '@xmldom/xmldom';

/** The largest XML we read (a 10,000-line invoice is about 10 MB). */
export const MAX_XML_BYTES = 20 * 1024 * 1024;

export type XmlRefusalReason = 'too_large' | 'doctype' | 'malformed' | 'empty';

/** An XML we will not read, with why; the HTTP layer maps it to a 4xx. */
export class XmlRefusedError extends Error {
  constructor(
    readonly reason: XmlRefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'XmlRefusedError';
  }
}

export function parseXml(input: string | Uint8Array, maxBytes = MAX_XML_BYTES): Document {
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  if (size > maxBytes) throw new XmlRefusedError('too_large', `The XML is ${size} bytes; at most ${maxBytes} are read.`);
  const text = typeof input === 'string' ? input : new TextDecoder('utf-8', { fatal: false }).decode(input);
  // A DTD is how XXE and entity bombs get in; an e-invoice never needs one.
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw new XmlRefusedError('doctype', 'The XML has a document type declaration (DOCTYPE or ENTITY); e-invoices carry none.');
  const problems: string[] = [];
  const parser = new DOMParser({
    locator: {},
    errorHandler: {
      // xmldom reports some ill-formed input (an unclosed tag) only as a warning.
      warning: (message: string) => problems.push(message),
      error: (message: string) => problems.push(message),
      fatalError: (message: string) => problems.push(message),
    },
  });
  let document: Document;
  try {
    document = parser.parseFromString(text, 'application/xml') as unknown as Document;
  } catch (error) {
    throw new XmlRefusedError('malformed', `The XML is not well-formed: ${(error as Error).message}`);
  }
  if (problems.length > 0) throw new XmlRefusedError('malformed', `The XML is not well-formed: ${problems[0]}`);
  if (!document?.documentElement) throw new XmlRefusedError('empty', 'The XML has no root element.');
  return document;
}
