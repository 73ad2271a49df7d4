// The XMP packet (ISO 16684-1) that mirrors a PDF's document information: Dublin Core title,
// author, subject and keywords, the PDF and XMP basic schemas for producer, creator tool, dates.

export interface XmpFields {
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string[];
  creator?: string;
  producer?: string;
  created: Date;
  modified: Date;
}

/** An XMP packet for the fields given (empty ones are left out). */
export function metadataXmp(fields: XmpFields): string {
  return xmpPacket([
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">',
    ...metadataLines(fields),
    '</rdf:Description>',
  ]);
}

/** The properties of the fields given, for an rdf:Description of the dc, pdf and xmp namespaces. */
export function metadataLines(fields: XmpFields): string[] {
  const alt = (value: string) => `<rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(value)}</rdf:li></rdf:Alt>`;
  return [
    fields.title ? `<dc:title>${alt(fields.title)}</dc:title>` : '',
    fields.author ? `<dc:creator><rdf:Seq><rdf:li>${escapeXml(fields.author)}</rdf:li></rdf:Seq></dc:creator>` : '',
    fields.subject ? `<dc:description>${alt(fields.subject)}</dc:description>` : '',
    fields.keywords?.length
      ? `<dc:subject><rdf:Bag>${fields.keywords.map((word) => `<rdf:li>${escapeXml(word)}</rdf:li>`).join('')}</rdf:Bag></dc:subject>`
      : '',
    fields.keywords?.length ? `<pdf:Keywords>${escapeXml(fields.keywords.join(', '))}</pdf:Keywords>` : '',
    fields.producer ? `<pdf:Producer>${escapeXml(fields.producer)}</pdf:Producer>` : '',
    fields.creator ? `<xmp:CreatorTool>${escapeXml(fields.creator)}</xmp:CreatorTool>` : '',
    `<xmp:CreateDate>${xmpDate(fields.created)}</xmp:CreateDate>`,
    `<xmp:ModifyDate>${xmpDate(fields.modified)}</xmp:ModifyDate>`,
    `<xmp:MetadataDate>${xmpDate(fields.modified)}</xmp:MetadataDate>`,
  ].filter(Boolean);
}

/** A packet around rdf:Description elements; `namespaces` are declared on rdf:RDF (for kept foreign descriptions). */
export function xmpPacket(descriptions: string[], namespaces = ''): string {
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"${namespaces}>`,
    ...descriptions,
    '</rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}

/**
 * An XMP date to the second, in UTC: the document information's dates have no fractions, and
 * PDF/A validators compare the two as instants (docs/decisions.md, "PDF/A").
 */
export function xmpDate(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

export function escapeXml(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these C0 controls (tab, LF and CR are allowed), so they are dropped on purpose
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}
