// The PDF half of a signature: an incremental update (pdf-lib's commit, so every byte before it is
// kept as it was, PDF/A and earlier signatures included) that adds a signature field, its widget on
// a page and a /Sig dictionary whose /Contents is a run of zeros and whose /ByteRange is written
// with fixed-width numbers. The CMS is made elsewhere (cms.ts) over the two byte ranges and written
// into the zeros (embed), so the file is never parsed twice. Runs on the signing worker thread.

import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFString, type PDFRef, StandardFonts } from '@cantoo/pdf-lib';
import { SignInputError } from './errors.ts';

export interface VisibleSignature {
  /** 1-based page; the last page when left out. */
  page?: number;
  /** [x, y, width, height] in points from the page's lower left corner. */
  box: [number, number, number, number];
  /** Lines drawn in the box (Helvetica is not embedded: refused with PDF/A, see decisions.md). */
  text?: string;
}

export interface PlaceholderOptions {
  reason?: string;
  location?: string;
  contact?: string;
  /** The signer's name as shown by readers (/Name). */
  name?: string;
  visible?: VisibleSignature;
  /** Bytes reserved for the CMS (hex doubles it in the file). */
  reserve: number;
}

export interface Prepared {
  pdf: Uint8Array;
  /** Where the hex string's '<' sits and how long it is with its brackets. */
  contentsAt: number;
  contentsLength: number;
  /** sha256 over the bytes the signature covers (everything but the hex string). */
  digest: Uint8Array;
}

const RANGE_WIDTH = 10;
// Four ten-digit numbers: pdf-lib writes them as they are, and the real values fit in their width.
const RANGE_PLACEHOLDER = 9_999_999_999;
const RANGE_MARK = `[ ${Array(4).fill(RANGE_PLACEHOLDER).join(' ')} ]`;

export async function preparePlaceholder(input: Uint8Array, options: PlaceholderOptions): Promise<Prepared> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(input, { forIncrementalUpdate: true, updateMetadata: false });
  } catch (error) {
    throw new SignInputError(`the PDF cannot be read for signing: ${(error as Error).message}`);
  }
  if (doc.isEncrypted) throw new SignInputError('an encrypted PDF cannot be signed');
  const context = doc.context;
  const pages = doc.getPages();
  const pageIndex = options.visible?.page ? options.visible.page - 1 : pages.length - 1;
  const page = pages[pageIndex];
  if (!page) throw new SignInputError(`visible.page ${options.visible?.page} is beyond the document's ${pages.length} pages`);

  const sig = context.obj({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: 'ETSI.CAdES.detached',
    ByteRange: Array(4).fill(RANGE_PLACEHOLDER),
    Contents: PDFHexString.of('0'.repeat(options.reserve * 2)),
  });
  if (options.reason) sig.set(PDFName.of('Reason'), PDFHexString.fromText(options.reason));
  if (options.location) sig.set(PDFName.of('Location'), PDFHexString.fromText(options.location));
  if (options.contact) sig.set(PDFName.of('ContactInfo'), PDFHexString.fromText(options.contact));
  if (options.name) sig.set(PDFName.of('Name'), PDFHexString.fromText(options.name));
  // PAdES B-B: the signing time claimed by the signer lives in /M, never in the CMS.
  sig.set(PDFName.of('M'), PDFString.fromDate(new Date()));
  const sigRef = context.register(sig);

  const acroForm = existingAcroForm(doc);
  const fields = acroForm.lookupMaybe(PDFName.of('Fields'), PDFArray) ?? PDFArray.withContext(context);
  const fieldName = `Signature${fields.size() + 1}`;
  const box = options.visible?.box ?? [0, 0, 0, 0];
  const rect = [box[0], box[1], box[0] + box[2], box[1] + box[3]];
  const widget = context.obj({
    Type: 'Annot',
    Subtype: 'Widget',
    FT: 'Sig',
    T: PDFString.of(fieldName),
    V: sigRef,
    F: 132, // print + locked
    P: page.ref,
    Rect: rect,
  });
  // PDF/A-1 wants an appearance on every widget, an invisible one included: an empty form then.
  const empty = () => context.register(context.stream('', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 0, 0] }));
  widget.set(PDFName.of('AP'), context.obj({ N: options.visible ? await appearance(doc, box[2], box[3], options.visible.text ?? '') : empty() }));
  const widgetRef = context.register(widget);
  fields.push(widgetRef);
  acroForm.set(PDFName.of('Fields'), fields);
  acroForm.set(PDFName.of('SigFlags'), PDFNumber.of(3));
  const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
  if (annots) {
    annots.push(widgetRef);
    const annotsRef = page.node.get(PDFName.of('Annots'));
    if (annotsRef && 'objectNumber' in annotsRef) markModified(doc, annotsRef as PDFRef);
  } else {
    page.node.set(PDFName.of('Annots'), context.obj([widgetRef]));
  }
  markModified(doc, page.ref);

  const withPlaceholder = (await doc.commit({ useObjectStreams: false })) as Uint8Array;
  return fillRanges(withPlaceholder, options.reserve);
}

/** The catalog's /AcroForm (made and linked when missing), marked for the update. */
function existingAcroForm(doc: PDFDocument): PDFDict {
  const catalog = doc.catalog;
  const present = catalog.get(PDFName.of('AcroForm'));
  if (present && 'objectNumber' in present) {
    markModified(doc, present as PDFRef);
    return doc.context.lookup(present as PDFRef, PDFDict);
  }
  const form = present instanceof PDFDict ? present : doc.context.obj({});
  const ref = doc.context.register(form);
  catalog.set(PDFName.of('AcroForm'), ref);
  markModified(doc, doc.context.trailerInfo.Root as PDFRef);
  return form;
}

/** Objects that existed before are written again only when marked (new ones always are). */
function markModified(doc: PDFDocument, ref: PDFRef): void {
  doc.context.snapshot?.markRefForSave(ref);
}

/** A form XObject with the text in Helvetica, framed; pdf-lib adds the font as a new object. */
async function appearance(doc: PDFDocument, width: number, height: number, text: string): Promise<PDFRef> {
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const size = Math.max(6, Math.min(11, height / Math.max(2, text.split('\n').length + 1)));
  const lines = text.split('\n').map((line, i) => {
    const safe = line.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');
    return `BT /F1 ${size.toFixed(1)} Tf 4 ${(height - (i + 1) * size * 1.2).toFixed(1)} Td (${safe}) Tj ET`;
  });
  const stream = doc.context.stream(`q 0.2 0.2 0.2 RG 0.5 w 0.25 0.25 ${width - 0.5} ${height - 0.5} re S Q\n0 g\n${lines.join('\n')}\n`, {
    Type: 'XObject',
    Subtype: 'Form',
    BBox: [0, 0, width, height],
    Resources: { Font: { F1: font.ref } },
  });
  const ref = doc.context.register(stream);
  await font.embed();
  return ref;
}

/**
 * Writes the byte range over its fixed-width mark (the same length, padded with spaces, so no
 * offset moves) and hashes the covered bytes.
 */
function fillRanges(pdf: Uint8Array, reserve: number): Prepared {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const text = bytes.toString('latin1');
  const hex = `<${'0'.repeat(reserve * 2)}>`;
  const contentsAt = text.lastIndexOf(hex);
  const rangeAt = text.lastIndexOf(RANGE_MARK);
  if (rangeAt < 0 || contentsAt < 0) throw new Error('signature placeholder not found in the update');
  const contentsEnd = contentsAt + hex.length;
  const ranges = [0, contentsAt, contentsEnd, bytes.length - contentsEnd];
  const written = `[ ${ranges.map((n) => String(n).padStart(RANGE_WIDTH, ' ')).join(' ')} ]`;
  if (written.length !== RANGE_MARK.length) throw new Error('byte range does not fit its mark');
  bytes.write(written, rangeAt, 'latin1');
  const hash = createHash('sha256');
  hash.update(bytes.subarray(0, contentsAt));
  hash.update(bytes.subarray(contentsEnd));
  return { pdf: bytes, contentsAt, contentsLength: hex.length, digest: hash.digest() };
}
