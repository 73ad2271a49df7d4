// Makes a PDF an archival PDF/A file by writing the PDF/A parts onto its own bytes (pdf-lib, on
// the PDF worker threads): an OutputIntent with an sRGB profile, XMP identification that agrees
// with the document information, a file identifier, print flags on annotations; and takes out
// what PDF/A forbids (JavaScript, launch and other active actions). Pages, fonts, text, links,
// bookmarks and the tag structure stay as they were: nothing is re-laid out or rasterised
// (docs/decisions.md, "PDF/A", has the measurements against Ghostscript).

import { createHash } from 'node:crypto';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHeader,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFString,
  decodePDFRawStream,
  getDefaultSRGBProfile,
  type PDFObject,
} from '@cantoo/pdf-lib';
import { pdfALevelOf, type PdfALevelFacts } from './pdf-a-options.ts';
import { archivalXmp } from './pdf-a-xmp.ts';
import { embeddedFileSpecs } from './pdf-objects.ts';
import { writeCidSets } from './cid-set.ts';
import { embedStandardFonts } from './embed-standard-font.ts';

const SRGB_CONDITION = 'sRGB IEC61966-2.1';

/** Actions PDF/A forbids (ISO 19005-2 6.6.1); their annotations and triggers lose them. */
export const FORBIDDEN_ACTIONS = new Set([
  'Launch',
  'Sound',
  'Movie',
  'ResetForm',
  'ImportData',
  'Hide',
  'JavaScript',
  'SetOCGState',
  'Rendition',
  'Trans',
  'GoTo3DView',
]);

/** The bytes as a PDF/A file of the level ("PDF/A-2b" or "2b"). */
export async function makeArchival(bytes: Uint8Array, levelName: string, now = new Date()): Promise<Uint8Array> {
  const facts = pdfALevelOf(levelName);
  if (!facts) throw new Error(`unknown PDF/A level ${levelName}`);
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  removeActiveContent(doc);
  fixLanguage(doc);
  await embedStandardFonts(doc);
  if (facts.part === 3) associateEmbeddedFiles(doc);
  writeOutputIntent(doc);
  writeIdentification(doc, facts, now);
  writeFileId(doc, bytes);
  // PDF/A-1 is PDF 1.4: no object or cross-reference streams. Later parts may use both.
  if (facts.part === 1) writeCidSets(doc);
  if (facts.part === 1) return doc.save({ useObjectStreams: false, updateFieldAppearances: false });
  doc.context.header = PDFHeader.forVersion(1, 7);
  return doc.save({ useObjectStreams: true, updateFieldAppearances: false });
}

function removeActiveContent(doc: PDFDocument): void {
  const { catalog } = doc;
  catalog.delete(PDFName.of('AA'));
  const names = catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  names?.delete(PDFName.of('JavaScript'));
  const open = catalog.lookup(PDFName.of('OpenAction'));
  if (open instanceof PDFDict && isForbiddenAction(open)) catalog.delete(PDFName.of('OpenAction'));
  for (const page of doc.getPages()) {
    page.node.delete(PDFName.of('AA'));
    const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    for (let i = 0; i < (annots?.size() ?? 0); i++) {
      const annot = annots!.lookup(i);
      if (!(annot instanceof PDFDict)) continue;
      annot.delete(PDFName.of('AA'));
      const action = annot.lookup(PDFName.of('A'));
      if (action instanceof PDFDict && isForbiddenAction(action)) annot.delete(PDFName.of('A'));
      if (annot.lookup(PDFName.of('Subtype')) === PDFName.of('Popup')) continue;
      // ISO 19005-2 6.3.2: annotations print (flag 4) and are never hidden (1, 2) or unviewable (32).
      const flags = annot.lookup(PDFName.of('F'));
      const value = flags instanceof PDFNumber ? flags.asNumber() : 0;
      annot.set(PDFName.of('F'), PDFNumber.of((value | 4) & ~(1 | 2 | 32)));
    }
  }
}

function isForbiddenAction(action: PDFDict): boolean {
  const kind = action.lookup(PDFName.of('S'));
  return kind instanceof PDFName && FORBIDDEN_ACTIONS.has(kind.decodeText());
}

/** Chromium writes the POSIX locale ("en-US@posix"), which is no language tag. */
export function fixLanguage(doc: PDFDocument): void {
  const lang = doc.catalog.lookup(PDFName.of('Lang'));
  if (!(lang instanceof PDFString || lang instanceof PDFHexString)) return;
  const tag = lang.decodeText().split(/[@.]/)[0]!.replace(/_/g, '-');
  doc.catalog.set(PDFName.of('Lang'), PDFString.of(tag));
}

/** PDF/A-3 6.8: every embedded file is an associated file with a relationship, named in F and UF. */
function associateEmbeddedFiles(doc: PDFDocument): void {
  const specs = embeddedFileSpecs(doc);
  if (specs.length === 0) return;
  const af = doc.catalog.lookupMaybe(PDFName.of('AF'), PDFArray) ?? doc.context.obj([]);
  const listed = new Set(af.asArray().map((entry) => entry.toString()));
  for (const { ref, spec } of specs) {
    if (!spec.has(PDFName.of('AFRelationship'))) spec.set(PDFName.of('AFRelationship'), PDFName.of('Unspecified'));
    const name = spec.lookup(PDFName.of('UF')) ?? spec.lookup(PDFName.of('F'));
    if (name && !spec.has(PDFName.of('UF'))) spec.set(PDFName.of('UF'), name as PDFObject);
    if (name && !spec.has(PDFName.of('F'))) spec.set(PDFName.of('F'), name as PDFObject);
    if (ref && !listed.has(ref.toString()) && !isAssociatedElsewhere(doc, ref.toString())) af.push(ref);
  }
  if (af.size() > 0) doc.catalog.set(PDFName.of('AF'), af);
}

function isAssociatedElsewhere(doc: PDFDocument, ref: string): boolean {
  return doc.getPages().some((page) =>
    page.node
      .lookupMaybe(PDFName.of('AF'), PDFArray)
      ?.asArray()
      .some((entry) => entry.toString() === ref),
  );
}

function writeOutputIntent(doc: PDFDocument): void {
  // The standard sRGB profile (HP, ICC v2, valid for every part) that pdf-lib ships.
  const profile = doc.context.flateStream(getDefaultSRGBProfile(), { N: 3 });
  const intent = doc.context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of(SRGB_CONDITION),
    Info: PDFString.of(SRGB_CONDITION),
    RegistryName: PDFString.of('http://www.color.org'),
    DestOutputProfile: doc.context.register(profile),
  });
  // One PDF/A intent: a second one with another profile would contradict it (6.2.3).
  doc.catalog.set(PDFName.of('OutputIntents'), doc.context.obj([doc.context.register(intent)]));
}

function writeIdentification(doc: PDFDocument, facts: PdfALevelFacts, now: Date): void {
  const modified = toSecond(now);
  const created = toSecond(doc.getCreationDate() ?? now);
  if (!doc.getProducer()) doc.setProducer('Quire');
  // Written as D:YYYYMMDDHHmmss+00'00', the form PDF/A validators read as the XMP's instant.
  const info = doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);
  info.set(PDFName.of('CreationDate'), PDFString.of(infoDate(created)));
  info.set(PDFName.of('ModDate'), PDFString.of(infoDate(modified)));
  // pdf:Trapped would need the same value in the XMP; nothing we make is trapped.
  info.delete(PDFName.of('Trapped'));
  const existing = doc.catalog.lookup(PDFName.of('Metadata'));
  const xmp = archivalXmp(
    {
      part: facts.part,
      conformance: facts.conformance,
      title: doc.getTitle(),
      author: doc.getAuthor(),
      subject: doc.getSubject(),
      keywords: splitKeywords(doc.getKeywords()),
      creator: doc.getCreator(),
      producer: doc.getProducer(),
      created,
      modified,
      documentId: `uuid:${uuidOf(doc)}`,
    },
    existing instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(existing).decode()).toString('utf8') : undefined,
  );
  // PDF/A-1 6.7.2: the metadata stream is not filtered, so any reader finds the packet. As bytes:
  // pdf-lib would write a string's characters as Latin-1, and the packet is UTF-8.
  const stream = doc.context.stream(new Uint8Array(Buffer.from(xmp, 'utf8')), { Type: 'Metadata', Subtype: 'XML' });
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
}

function splitKeywords(keywords: string | undefined): string[] | undefined {
  // pdf-lib joins keywords with spaces; the mirror must hold the same text (pdf:Keywords).
  return keywords ? [keywords] : undefined;
}

function writeFileId(doc: PDFDocument, bytes: Uint8Array): void {
  const existing = doc.context.trailerInfo.ID;
  const first = existing instanceof PDFArray ? existing.get(0) : undefined;
  const changed = PDFHexString.of(createHash('md5').update(bytes).update(String(Date.now())).digest('hex'));
  doc.context.trailerInfo.ID = doc.context.obj([first ?? changed, changed]);
}

function uuidOf(doc: PDFDocument): string {
  const id = doc.context.trailerInfo.ID;
  const seed = id instanceof PDFArray ? id.get(0)!.toString() : String(Math.random());
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function toSecond(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

function infoDate(date: Date): string {
  const iso = date.toISOString();
  return `D:${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}+00'00'`;
}
