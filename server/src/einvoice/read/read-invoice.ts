// Reads an e-invoice XML of either syntax into the EN 16931 model: parses it safely
// (safe-xml.ts), tells CII from UBL Invoice/CreditNote by the root element, and hands back the
// model with the parsed document (the syntax rules look at the XML itself).

import type { Invoice } from '../model/invoice-model.ts';
import { NS, Node } from '../xml/located-node.ts';
import { parseXml, XmlRefusedError } from '../xml/safe-xml.ts';
import { readCii } from './cii-reader.ts';
import { readUbl } from './ubl-reader.ts';

export interface ReadInvoice {
  invoice: Invoice;
  root: Node;
}

export class NotAnInvoiceError extends Error {
  constructor(readonly rootName: string) {
    super(`The XML's root element ${rootName} is neither a CII CrossIndustryInvoice nor a UBL 2.1 Invoice or CreditNote.`);
    this.name = 'NotAnInvoiceError';
  }
}

export function readInvoice(xml: string | Uint8Array): ReadInvoice {
  const document = parseXml(xml);
  const root = Node.root(document);
  const { localName, namespaceURI } = root.element;
  if (localName === 'CrossIndustryInvoice' && namespaceURI === NS.rsm) return { invoice: readCii(root), root };
  if ((localName === 'Invoice' && namespaceURI === NS.ubl) || (localName === 'CreditNote' && namespaceURI === NS.cn)) return { invoice: readUbl(root), root };
  throw new NotAnInvoiceError(`{${namespaceURI ?? ''}}${localName}`);
}

export { XmlRefusedError };
