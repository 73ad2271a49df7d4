// The XMP packet of a PDF/A file: the identification (pdfaid), the document information mirrored
// (dc, pdf, xmp) and a document id (xmpMM) are ours to write; every other property of the
// document's existing packet is kept, so the Factur-X (fx:) properties and the pdfaExtension
// schemas the e-invoice step wrote before us survive (docs/decisions.md, "PDF/A").

import { escapeXml, metadataLines, xmpPacket, type XmpFields } from './xmp.ts';

/** The namespaces this step writes; properties in any other namespace are kept as they were. */
export const OWNED_NAMESPACES = [
  'http://www.aiim.org/pdfa/ns/id/',
  'http://purl.org/dc/elements/1.1/',
  'http://ns.adobe.com/xap/1.0/',
  'http://ns.adobe.com/pdf/1.3/',
  'http://ns.adobe.com/xap/1.0/mm/',
];

export interface ArchivalXmpFields extends XmpFields {
  part: number;
  conformance: string;
  documentId: string;
}

/** The new packet: our description first, then what the old packet held outside our namespaces. */
export function archivalXmp(fields: ArchivalXmpFields, existing?: string): string {
  const kept = existing ? foreignDescriptions(existing) : { descriptions: [], namespaces: '' };
  const ours = [
    '<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" xmlns:dc="http://purl.org/dc/elements/1.1/" ' +
      'xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/">',
    `<pdfaid:part>${fields.part}</pdfaid:part>`,
    `<pdfaid:conformance>${fields.conformance}</pdfaid:conformance>`,
    ...metadataLines(fields),
    `<xmpMM:DocumentID>${escapeXml(fields.documentId)}</xmpMM:DocumentID>`,
    '</rdf:Description>',
  ];
  return xmpPacket([...ours, ...kept.descriptions], kept.namespaces);
}

const DESCRIPTION = /<(\/?)rdf:Description\b([^>]*?)(\/?)>/g;
const NAMESPACE = /\sxmlns:([\w.-]+)\s*=\s*("([^"]*)"|'([^']*)')/g;

/**
 * The top-level rdf:Description elements of a packet with our namespaces' properties taken out
 * (a description left empty is dropped), and the namespaces declared above them, which a kept
 * description may use.
 */
export function foreignDescriptions(packet: string): { descriptions: string[]; namespaces: string } {
  const rdfStart = packet.search(/<rdf:RDF\b/);
  if (rdfStart < 0) return { descriptions: [], namespaces: '' };
  const outer = packet.slice(0, packet.indexOf('>', rdfStart) + 1);
  const declared = new Map<string, string>();
  for (const match of outer.matchAll(NAMESPACE)) declared.set(match[1]!, match[3] ?? match[4] ?? '');
  const descriptions: string[] = [];
  let depth = 0;
  let start = 0;
  for (const match of packet.matchAll(DESCRIPTION)) {
    const [tag, closing, , selfClosing] = match;
    if (closing) {
      depth--;
      if (depth === 0) descriptions.push(packet.slice(start, match.index + tag.length));
    } else if (selfClosing) {
      if (depth === 0) descriptions.push(tag);
    } else {
      if (depth === 0) start = match.index;
      depth++;
    }
  }
  const kept = descriptions.map((description) => withoutOwned(description, declared)).filter((description) => description !== undefined);
  const foreign = [...declared].filter(([prefix, uri]) => prefix !== 'rdf' && prefix !== 'x' && !OWNED_NAMESPACES.includes(uri));
  return { descriptions: kept, namespaces: foreign.map(([prefix, uri]) => ` xmlns:${prefix}="${escapeXml(uri)}"`).join('') };
}

/** The description without properties in our namespaces; undefined when nothing else is left. */
function withoutOwned(description: string, outer: Map<string, string>): string | undefined {
  const open = description.slice(0, description.indexOf('>') + 1);
  const prefixes = new Map(outer);
  for (const match of open.matchAll(NAMESPACE)) prefixes.set(match[1]!, match[3] ?? match[4] ?? '');
  const owned = [...prefixes].filter(([, uri]) => OWNED_NAMESPACES.includes(uri)).map(([prefix]) => prefix);
  let text = description;
  for (const prefix of owned) {
    // Elements (with their content) and attributes written in an owned namespace.
    text = text.replace(new RegExp(`<${prefix}:([\\w.-]+)\\b[^>]*?/>`, 'g'), '');
    text = text.replace(new RegExp(`<${prefix}:([\\w.-]+)\\b[^>]*?>[\\s\\S]*?</${prefix}:\\1>`, 'g'), '');
    text = text.replace(new RegExp(`\\s${prefix}:[\\w.-]+\\s*=\\s*("[^"]*"|'[^']*')`, 'g'), '');
  }
  const body = text.replace(/^<rdf:Description\b[^>]*?\/?>/, '').replace(/<\/rdf:Description>$/, '');
  const hasAttributes = /\s(?!xmlns[:=]|rdf:about\b)[\w.-]+:[\w.-]+\s*=/.test(text.slice(0, text.indexOf('>') + 1));
  return body.trim() === '' && !hasAttributes ? undefined : text;
}
