// Embeds files in a PDF as associated files (ISO 32000-2 14.13, PDF/A-3 6.8): each one an
// EmbeddedFile stream with its MIME type and /Params (size, dates, MD5 checksum), a file
// specification with /F, /UF, /Desc and /AFRelationship, listed in the EmbeddedFiles name tree and
// in the catalog's /AF array; and merges extra rdf:Descriptions (Factur-X's) into the XMP packet.
// Runs on the PDF worker thread (pdf-worker.ts). It writes no PDF/A identification: that is the
// PDF/A step's, which keeps the descriptions written here.

import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFStream, PDFString, decodePDFRawStream, type PDFRef } from '@cantoo/pdf-lib';
import type { AF_RELATIONSHIPS } from './attachment-options.ts';

export interface FileToEmbed {
  name: string;
  bytes: Uint8Array;
  mimeType: string;
  description?: string;
  relationship: (typeof AF_RELATIONSHIPS)[number];
}

/** The PDF with the files attached and, when given, the rdf:Descriptions merged into its XMP. */
export async function embedFiles(pdf: Uint8Array, files: FileToEmbed[], xmpDescriptions?: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const now = PDFString.fromDate(new Date());
  const specs = files.map((file) => ({ name: file.name, ref: embedOne(doc, file, now) }));
  addToNameTree(doc, specs);
  const af = doc.catalog.lookupMaybe(PDFName.of('AF'), PDFArray) ?? doc.context.obj([]);
  for (const spec of specs) af.push(spec.ref);
  doc.catalog.set(PDFName.of('AF'), af);
  if (xmpDescriptions) writeXmp(doc, mergeXmp(readXmp(doc), xmpDescriptions));
  // Object streams are allowed from PDF 1.5 and in PDF/A-2 and -3; the file keeps Chromium's version.
  return doc.save({ updateFieldAppearances: false });
}

function embedOne(doc: PDFDocument, file: FileToEmbed, now: PDFString): PDFRef {
  const { context } = doc;
  const stream = context.flateStream(file.bytes, {
    Type: 'EmbeddedFile',
    Subtype: file.mimeType,
    Params: {
      Size: file.bytes.byteLength,
      CreationDate: now,
      ModDate: now,
      CheckSum: PDFHexString.of(createHash('md5').update(file.bytes).digest('hex')),
    },
  });
  const streamRef = context.register(stream);
  const spec = context.obj({
    Type: 'Filespec',
    // /F is a byte string: readers that predate /UF see the name with anything outside ASCII replaced.
    F: PDFString.of(asciiName(file.name)),
    UF: PDFHexString.fromText(file.name),
    EF: { F: streamRef, UF: streamRef },
    AFRelationship: file.relationship,
  });
  if (file.description) spec.set(PDFName.of('Desc'), PDFHexString.fromText(file.description));
  return context.register(spec);
}

/** Adds the specs to the catalog's EmbeddedFiles name tree, kept sorted as name trees must be (a tree with /Kids gets a new root over it). */
function addToNameTree(doc: PDFDocument, specs: { name: string; ref: PDFRef }[]): void {
  const { context, catalog } = doc;
  const names = catalog.lookupMaybe(PDFName.of('Names'), PDFDict) ?? context.obj({});
  catalog.set(PDFName.of('Names'), names);
  const tree = names.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const entries: { name: string; ref: PDFRef | PDFHexString }[] = specs.map((spec) => ({ name: spec.name, ref: spec.ref }));
  const kids: PDFRef[] = [];
  if (tree) {
    const flat = tree.lookupMaybe(PDFName.of('Names'), PDFArray);
    for (let i = 0; flat && i + 1 < flat.size(); i += 2) {
      const key = flat.lookup(i);
      const name = key instanceof PDFString || key instanceof PDFHexString ? key.decodeText() : String(i);
      entries.push({ name, ref: flat.get(i + 1) as PDFRef });
    }
    if (tree.has(PDFName.of('Kids'))) kids.push(context.register(dictWithout(tree, 'Names')));
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const leaf = context.obj({ Names: entries.flatMap((entry) => [PDFHexString.fromText(entry.name), entry.ref]) });
  if (kids.length > 0) {
    const first = entries[0]?.name ?? '';
    const last = entries.at(-1)?.name ?? '';
    leaf.set(PDFName.of('Limits'), context.obj([PDFHexString.fromText(first), PDFHexString.fromText(last)]));
    names.set(PDFName.of('EmbeddedFiles'), context.obj({ Kids: [...kids, context.register(leaf)] }));
  } else {
    names.set(PDFName.of('EmbeddedFiles'), leaf);
  }
}

function dictWithout(dict: PDFDict, key: string): PDFDict {
  const copy = dict.clone();
  copy.delete(PDFName.of(key));
  return copy;
}

function asciiName(name: string): string {
  return name.replace(/[^\u0020-\u007e]/g, '_');
}

/** The document's XMP packet as text, if it has one. */
export function readXmp(doc: PDFDocument): string | undefined {
  const stream = doc.catalog.lookupMaybe(PDFName.of('Metadata'), PDFStream);
  if (!(stream instanceof PDFRawStream)) return undefined;
  return new TextDecoder().decode(decodePDFRawStream(stream).decode());
}

function writeXmp(doc: PDFDocument, xmp: string): void {
  // Unfiltered, as PDF/A asks of the metadata stream: any reader finds the packet by scanning.
  const stream = doc.context.stream(new TextEncoder().encode(xmp), { Type: 'Metadata', Subtype: 'XML' });
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
}

const EMPTY_PACKET = [
  '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
  '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
  '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
  '</rdf:RDF>',
  '</x:xmpmeta>',
  '<?xpacket end="w"?>',
].join('\n');

/**
 * The packet with the descriptions added before </rdf:RDF>. Descriptions already there that
 * declare one of the same namespaces are dropped first, so applying the step twice leaves one copy.
 */
export function mergeXmp(existing: string | undefined, descriptions: string): string {
  let packet = existing?.includes('</rdf:RDF>') ? existing : EMPTY_PACKET;
  const namespaces = [...descriptions.matchAll(/xmlns:(\w+)="([^"]+)"/g)].map((match) => match[2]!);
  packet = packet.replace(/<rdf:Description\b[^>]*\/>|<rdf:Description\b[^>]*[^/]>[\s\S]*?<\/rdf:Description>/g, (description) => {
    const head = /<rdf:Description\b[^>]*>/.exec(description)![0];
    return namespaces.some((uri) => head.includes(`"${uri}"`) && !uri.includes('22-rdf-syntax-ns')) ? '' : description;
  });
  return packet.replace('</rdf:RDF>', `${descriptions}\n</rdf:RDF>`);
}
