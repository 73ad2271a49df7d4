// The PDF/UA identification in the XMP packet: pdfuaid:part 1, a dc:title, and the PDF/A
// extension schema that describes pdfuaid (PDF/A validators require one for every property
// outside their predefined schemas). It adds to an existing packet and keeps all of it, so it
// composes with the PDF/A step in either order: pdf-a-xmp.ts keeps pdfuaid, a namespace it does
// not own, and this module keeps pdfaid and the e-invoice's fx: schema (docs/decisions.md).

import { escapeXml, metadataLines, xmpPacket, type XmpFields } from '../xmp.ts';

export const PDFUAID_NAMESPACE = 'http://www.aiim.org/pdfua/ns/id/';

const IDENTIFICATION = `<rdf:Description rdf:about="" xmlns:pdfuaid="${PDFUAID_NAMESPACE}"><pdfuaid:part>1</pdfuaid:part></rdf:Description>`;

const SCHEMA = [
  '<rdf:li rdf:parseType="Resource">',
  '<pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>',
  `<pdfaSchema:namespaceURI>${PDFUAID_NAMESPACE}</pdfaSchema:namespaceURI>`,
  '<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>',
  '<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource">',
  '<pdfaProperty:name>part</pdfaProperty:name>',
  '<pdfaProperty:valueType>Integer</pdfaProperty:valueType>',
  '<pdfaProperty:category>internal</pdfaProperty:category>',
  '<pdfaProperty:description>The part of ISO 14289 the file conforms to</pdfaProperty:description>',
  '</rdf:li></rdf:Seq></pdfaSchema:property>',
  '</rdf:li>',
].join('\n');

const EXTENSION_NAMESPACES =
  'xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#"';

const EXTENSION = `<rdf:Description rdf:about="" ${EXTENSION_NAMESPACES}>\n<pdfaExtension:schemas><rdf:Bag>\n${SCHEMA}\n</rdf:Bag></pdfaExtension:schemas>\n</rdf:Description>`;

/** The packet with the PDF/UA-1 identification: a new one mirroring `fields`, or `existing` with it added. */
export function uaXmp(fields: XmpFields, existing?: string): string {
  if (!existing || !/<\/rdf:RDF>/.test(existing)) {
    const dublinCore = `<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">`;
    return xmpPacket([IDENTIFICATION, [dublinCore, ...metadataLines(fields), '</rdf:Description>'].join('\n'), EXTENSION]);
  }
  // An earlier identification (any part) goes: the file now claims part 1.
  let packet = existing.replace(/<pdfuaid:part\b[^>]*>[^<]*<\/pdfuaid:part>/g, '').replace(/\spdfuaid:part\s*=\s*("[^"]*"|'[^']*')/g, '');
  const additions = [IDENTIFICATION];
  if (!/<dc:title\b/.test(packet) && fields.title)
    additions.push(
      `<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(fields.title)}</rdf:li></rdf:Alt></dc:title></rdf:Description>`,
    );
  const schemas = /<pdfaExtension:schemas\b[^>]*>\s*<rdf:Bag>/.exec(packet);
  const described = packet.includes(`<pdfaSchema:namespaceURI>${PDFUAID_NAMESPACE}</pdfaSchema:namespaceURI>`);
  if (!described && schemas) {
    // One pdfaExtension:schemas property per packet: ours joins the Bag that is there (the e-invoice's).
    const at = schemas.index + schemas[0].length;
    packet = `${packet.slice(0, at)}\n${SCHEMA}${packet.slice(at)}`;
  } else if (!described) additions.push(EXTENSION);
  const end = packet.lastIndexOf('</rdf:RDF>');
  return `${packet.slice(0, end)}${additions.join('\n')}\n${packet.slice(end)}`;
}
