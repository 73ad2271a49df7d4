// What a PDF carries besides its text (inspect.ts): the raster images each page draws, with their
// pixel size and the resolution they print at, and the files attached to the document or to its
// pages. Read with pdf-lib from the objects themselves; fonts come from pdf-facts.ts.

import { PDFArray, PDFDict, PDFName, PDFRef, PDFStream, type PDFDocument, type PDFPage } from '@cantoo/pdf-lib';
import { embeddedFileSpecs } from './pdf-objects.ts';
import { IDENTITY, multiply, placementsIn, type Matrix } from './content-placements.ts';
import { arrayAt, dictAt, entry, nameAt, nameOf, numberAt, resolve, streamBytes, textAt } from './pdf-values.ts';

export interface PdfImagePlacement {
  /** 1-based page that draws it. */
  page: number;
  /** The image's object number; null for an inline image. */
  object: number | null;
  width: number;
  height: number;
  bitsPerComponent: number | null;
  colorSpace: string | null;
  /** The last filter of its stream ("DCTDecode" is a JPEG, "FlateDecode" lossless...), null when none. */
  filter: string | null;
  /** A stencil mask (/ImageMask true). */
  mask: boolean;
  /** Pixels per inch as placed on the page, across and down (as pdfimages -list computes x-ppi and y-ppi). */
  xDpi: number;
  yDpi: number;
}

export interface PdfAttachment {
  name: string;
  /** Bytes of the file once unpacked (its /Params /Size, else the stream's length). */
  size: number | null;
  mime: string | null;
  description: string | null;
  /** Source, Data, Alternative, Supplement, Unspecified (PDF/A-3), or null when it says none. */
  relationship: string | null;
  modified: string | null;
  /** null: attached to the document; a page number: a file attachment annotation on that page. */
  page: number | null;
}

/** Form XObjects nest; a form drawing itself (directly or not) is not followed past this depth. */
const MAX_FORM_DEPTH = 12;
/** Images listed per document at most (a PDF of a million tiny images gets a truncated list). */
export const MAX_LISTED_IMAGES = 5000;

/** Every raster image each page draws, once per placement, in page order. */
export function imagesOf(document: PDFDocument, pages: PDFPage[]): PdfImagePlacement[] {
  const out: PdfImagePlacement[] = [];
  pages.forEach((page, index) => {
    const resources = page.node.Resources();
    // A page with no XObjects can still hold inline images, but its content says BI then.
    const content = pageContent(document, page);
    if (!content || (!dictAt(document, resources, 'XObject')?.keys().length && Buffer.from(content).indexOf('BI') === -1)) return;
    drawnImages(document, content, resources, IDENTITY, index + 1, 0, out);
  });
  return out;
}

function pageContent(document: PDFDocument, page: PDFPage): Uint8Array | undefined {
  const contents = resolve(document, page.node.get(PDFName.of('Contents')));
  const streams = contents instanceof PDFArray ? contents.asArray().map((item) => resolve(document, item)) : [contents];
  const parts = streams.map(streamBytes).filter((bytes): bytes is Uint8Array => bytes !== undefined);
  if (parts.length === 0) return undefined;
  // Streams of one page are one content stream split anywhere between tokens: joined with a space.
  return Buffer.concat(parts.flatMap((part) => [part, Buffer.from(' ')]));
}

function drawnImages(
  document: PDFDocument,
  content: Uint8Array,
  resources: PDFDict | undefined,
  start: Matrix,
  page: number,
  depth: number,
  out: PdfImagePlacement[],
): void {
  const xobjects = dictAt(document, resources, 'XObject');
  for (const placement of placementsIn(content, start)) {
    if (out.length >= MAX_LISTED_IMAGES) return;
    if (placement.kind === 'inline') {
      out.push({
        page,
        object: null,
        ...sized(placement.width, placement.height, placement.matrix),
        bitsPerComponent: null,
        colorSpace: null,
        filter: null,
        mask: false,
      });
      continue;
    }
    const ref = xobjects?.get(PDFName.of(placement.name));
    const stream = resolve(document, ref);
    if (!(stream instanceof PDFStream)) continue;
    const dict = stream.dict;
    const subtype = nameAt(document, dict, 'Subtype');
    if (subtype === 'Image') {
      const width = numberAt(document, dict, 'Width') ?? 0;
      const height = numberAt(document, dict, 'Height') ?? 0;
      out.push({
        page,
        object: ref instanceof PDFRef ? ref.objectNumber : null,
        ...sized(width, height, placement.matrix),
        bitsPerComponent: numberAt(document, dict, 'BitsPerComponent') ?? null,
        colorSpace: colorSpaceName(document, entry(document, dict, 'ColorSpace')),
        filter: lastFilter(document, dict),
        mask: entry(document, dict, 'ImageMask')?.toString() === 'true',
      });
    } else if (subtype === 'Form' && depth < MAX_FORM_DEPTH) {
      const matrix = arrayAt(document, dict, 'Matrix');
      const form = matrix?.size() === 6 ? (matrix.asArray().map((n) => Number(resolve(document, n)?.toString())) as Matrix) : IDENTITY;
      const bytes = streamBytes(stream);
      if (bytes) drawnImages(document, bytes, dictAt(document, dict, 'Resources') ?? resources, multiply(form, placement.matrix), page, depth + 1, out);
    }
  }
}

/** Pixel size and the resolution it is drawn at: the unit square mapped by the matrix, in points (1/72 inch). */
function sized(width: number, height: number, matrix: Matrix): { width: number; height: number; xDpi: number; yDpi: number } {
  const across = Math.hypot(matrix[0], matrix[1]);
  const down = Math.hypot(matrix[2], matrix[3]);
  return { width, height, xDpi: across > 0 ? Math.round((width * 72) / across) : 0, yDpi: down > 0 ? Math.round((height * 72) / down) : 0 };
}

function colorSpaceName(document: PDFDocument, value: ReturnType<typeof entry>): string | null {
  if (value instanceof PDFArray) {
    const family = nameOf(resolve(document, value.get(0)));
    if (family === 'ICCBased') {
      const profile = resolve(document, value.get(1));
      const components = profile instanceof PDFStream ? numberAt(document, profile.dict, 'N') : undefined;
      return components === 1 ? 'ICCBased (gray)' : components === 4 ? 'ICCBased (CMYK)' : 'ICCBased (RGB)';
    }
    return family ?? null;
  }
  return nameOf(value) ?? null;
}

function lastFilter(document: PDFDocument, dict: PDFDict): string | null {
  const filter = entry(document, dict, 'Filter');
  if (filter instanceof PDFArray) return nameOf(resolve(document, filter.get(filter.size() - 1))) ?? null;
  return nameOf(filter) ?? null;
}

/** Files attached to the document (its EmbeddedFiles name tree) and to its pages (file attachment annotations). */
export function attachmentsOf(document: PDFDocument, pages: PDFPage[]): PdfAttachment[] {
  const out: PdfAttachment[] = embeddedFileSpecs(document).map(({ name, spec }) => describeFile(document, spec, name, null));
  pages.forEach((page, index) => {
    const annotations = arrayAt(document, page.node, 'Annots');
    for (let i = 0; annotations && i < annotations.size(); i++) {
      const annotation = resolve(document, annotations.get(i));
      if (!(annotation instanceof PDFDict) || nameAt(document, annotation, 'Subtype') !== 'FileAttachment') continue;
      const spec = dictAt(document, annotation, 'FS');
      if (spec) out.push(describeFile(document, spec, undefined, index + 1));
    }
  });
  return out;
}

/** The embedded file stream of a file specification (/EF /F, else /UF); undefined when it holds none. */
export function embeddedStreamOf(document: PDFDocument, spec: PDFDict): PDFStream | undefined {
  const file = resolve(document, dictAt(document, spec, 'EF')?.get(PDFName.of('F')) ?? dictAt(document, spec, 'EF')?.get(PDFName.of('UF')));
  return file instanceof PDFStream ? file : undefined;
}

/** One attached file as inspect reports it: its name (/UF, /F, else its key in the name tree), size, type, relationship. */
export function describeFile(document: PDFDocument, spec: PDFDict, treeName: string | undefined, page: number | null): PdfAttachment {
  const file = embeddedStreamOf(document, spec);
  const fileDict = file?.dict;
  const size = numberAt(document, dictAt(document, fileDict, 'Params'), 'Size') ?? (file ? (streamBytes(file)?.byteLength ?? null) : null);
  return {
    name: textAt(document, spec, 'UF') ?? textAt(document, spec, 'F') ?? treeName ?? '',
    size,
    mime: nameAt(document, fileDict, 'Subtype') ?? null,
    description: textAt(document, spec, 'Desc') ?? null,
    relationship: nameAt(document, spec, 'AFRelationship') ?? null,
    modified: textAt(document, dictAt(document, fileDict, 'Params'), 'ModDate') ?? null,
    page,
  };
}
