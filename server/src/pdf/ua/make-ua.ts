// Makes Chromium's tagged PDF a PDF/UA-1 file by post-processing (issue 42, item 2): a title shown
// in the viewer's title bar, a language tag, pdfuaid in the XMP, PDF 2.0 structure types
// role-mapped, untagged painting (Chromium's header and footer templates) marked as artifacts,
// images without alt text made artifacts, and links given Contents, a Link parent and /Tabs /S.
// It cannot add tags Chromium did not write; the checker (check-ua.ts) judges the result.

import { type PDFDict, PDFDocument, PDFHeader, PDFName, PDFRawStream, PDFString, decodePDFRawStream } from '@cantoo/pdf-lib';
import { embedStandardFonts } from '../embed-standard-font.ts';
import { fixLanguage } from '../pdf-a.ts';
import { textAt } from '../pdf-values.ts';
import { markArtifacts } from './artifact-marks.ts';
import { checkUaDocument, type UaReport } from './check-ua.ts';
import { pageStreams } from './page-content.ts';
import { detachFiguresWithoutAlt, fixAnnotations, mapPdf2Types } from './structure-fixes.ts';
import { pageIndexOf, readStructureTree } from './structure-tree.ts';
import { uaXmp } from './ua-xmp.ts';

export interface MakeUaOptions {
  /** The title to show; default: the document's own (Chromium copies `<title>`). */
  title?: string;
  /** A BCP 47 language tag; default: the document's (Chromium copies `<html lang>`). */
  lang?: string;
  now?: Date;
}

export interface MadeUa {
  bytes: Uint8Array;
  /**
   * The checker's report on the document as saved, decided on the fixer's own parse (no second
   * pdf-lib load: that is half of the cost). A later step that changes the bytes checks again (checkUa).
   */
  report: UaReport;
  /** What was changed, for the receipt ("12 untagged runs marked as artifacts on 3 pages", ...). */
  changes: string[];
}

/** Neither the options nor the document give a title: PDF/UA needs one (the API answers 400 asking for it). */
export class UaTitleMissingError extends Error {
  override readonly name = 'UaTitleMissingError';
  constructor() {
    super('PDF/UA needs a document title: give the page a <title> or pass a title');
  }
}

export class UaNotTaggedError extends Error {
  override readonly name = 'UaNotTaggedError';
  constructor() {
    super('PDF/UA needs a tagged PDF: the file has no structure tree (render with tagged: true)');
  }
}

export async function makeUa(bytes: Uint8Array, options: MakeUaOptions = {}): Promise<MadeUa> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const pageIndex = pageIndexOf(doc);
  const tree = readStructureTree(doc, pageIndex);
  if (!tree.root) throw new UaNotTaggedError();
  const changes: string[] = [];
  const title = options.title?.trim() || documentTitle(doc);
  if (!title) throw new UaTitleMissingError();
  doc.setTitle(title, { showInWindowTitleBar: true });
  changes.push(...setLanguage(doc, tree.elements[0]?.dict, options.lang));
  const mapped = mapPdf2Types(doc, tree);
  if (mapped.length > 0) changes.push(`role-mapped ${mapped.join(', ')}`);
  const figures = detachFiguresWithoutAlt(doc, tree, pageIndex);
  const artifacts = markPages(doc, figures);
  if (figures.size > 0) changes.push(`images without alt text made artifacts on ${figures.size} page(s)`);
  if (artifacts > 0) changes.push(`untagged content marked as artifact on ${artifacts} page(s)`);
  const links = fixAnnotations(doc, tree);
  if (links > 0) changes.push(`${links} link(s) given Contents or a Link structure parent`);
  // Quire's watermark is drawn in the standard Helvetica, which 31-009 refuses unembedded: it
  // becomes the embedded, metric-compatible Liberation Sans, as under PDF/A.
  const standard = await embedStandardFonts(doc);
  if (standard) changes.push('the standard Helvetica embedded (as Liberation Sans)');
  writeXmp(doc, title, options.now ?? new Date());
  changes.push('pdfuaid:part 1 in the XMP');
  // Object streams need PDF 1.5; PDF/UA-1 is read against PDF 1.7 (ISO 14289-1).
  doc.context.header = PDFHeader.forVersion(1, 7);
  const report = checkUaDocument(doc);
  return { bytes: await doc.save({ useObjectStreams: true, updateFieldAppearances: false }), changes, report };
}

/** Full Chromium writes the page's URL ("about:blank") as Title when the page has no <title>: that is no title. */
const URL_TITLE = /^(about|https?|data|file|blob):/i;

function documentTitle(doc: PDFDocument): string | undefined {
  const title = doc.getTitle()?.trim();
  return title && !URL_TITLE.test(title) ? title : undefined;
}

/** The given tag, or the document's with Chromium's POSIX locale suffix ("en-US@posix") taken off; on the catalog and the Document element. */
function setLanguage(doc: PDFDocument, documentElement: PDFDict | undefined, lang: string | undefined): string[] {
  const written = textAt(doc, doc.catalog, 'Lang');
  if (lang) doc.catalog.set(PDFName.of('Lang'), PDFString.of(lang));
  else fixLanguage(doc);
  const tag = textAt(doc, doc.catalog, 'Lang');
  if (!tag) return ['no language: the page has no lang and none was given'];
  if (documentElement?.has(PDFName.of('Lang'))) documentElement.set(PDFName.of('Lang'), PDFString.of(tag));
  if (lang) return [`language ${lang}`];
  // Chromium writes its process locale when the page has no lang: a guess, said so.
  return written?.includes('@') ? [`language ${tag} from the renderer's locale: the page has no lang`] : [];
}

/** Rewrites each page's content streams that change; answers how many pages changed. */
function markPages(doc: PDFDocument, figures: Map<number, Set<number>>): number {
  let changed = 0;
  doc.getPages().forEach((page, index) => {
    let touched = false;
    for (const stream of pageStreams(page)) {
      const marked = markArtifacts(stream.bytes, figures.get(index));
      if (!marked || !stream.ref) continue;
      doc.context.assign(stream.ref, doc.context.flateStream(marked));
      touched = true;
    }
    if (touched) changed++;
  });
  return changed;
}

function writeXmp(doc: PDFDocument, title: string, now: Date): void {
  const existing = doc.catalog.lookup(PDFName.of('Metadata'));
  const packet = uaXmp(
    {
      title,
      author: doc.getAuthor(),
      subject: doc.getSubject(),
      creator: doc.getCreator(),
      producer: doc.getProducer(),
      created: doc.getCreationDate() ?? now,
      modified: doc.getModificationDate() ?? now,
    },
    existing instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(existing).decode()).toString('utf8') : undefined,
  );
  // Unfiltered and as UTF-8 bytes, as the PDF/A step writes it (pdf-a.ts).
  const stream = doc.context.stream(new Uint8Array(Buffer.from(packet, 'utf8')), { Type: 'Metadata', Subtype: 'XML' });
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
}
