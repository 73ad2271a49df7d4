// What is inside a PDF, for tools and for the documents screen (POST /v1/pdf/inspect,
// docs/api.md#pdf-tools): pages with size and rotation, metadata (Info and XMP), bookmarks, form
// fields, attachments, fonts, images, encryption and permissions, version, tags, the PDF/A and
// PDF/UA claims and the signature fields. It reports what the file says; it verifies nothing.

import type { InspectChecks } from './inspect-checks.ts';
import { PDFDict, PDFName, type PDFDocument } from '@cantoo/pdf-lib';
import { readOutlineTree, type OutlineEntry } from './outline.ts';
import { attachmentsOf, imagesOf, type PdfAttachment, type PdfImagePlacement } from './inspect-resources.ts';
import { formOf, type PdfFormField, type PdfSignature } from './inspect-forms.ts';
import { fontsOf, type PdfFont } from './pdf-facts.ts';
import { boolAt, dictAt, entry, nameAt, resolve, streamBytes, textOf } from './pdf-values.ts';
import { readPdf } from './pdf-read.ts';
import { encryptionOf, type PdfEncryption } from './inspect-encryption.ts';

export interface PdfPageFacts {
  number: number;
  /** The visible area (CropBox, else MediaBox) in points, before rotation. */
  width: number;
  height: number;
  /** Clockwise degrees a viewer turns the page: 0, 90, 180 or 270. */
  rotation: number;
}

export interface PdfBookmark {
  title: string;
  /** 1-based page it opens, null when it points elsewhere (a URL, a named destination). */
  page: number | null;
  children: PdfBookmark[];
}

export interface PdfInspection {
  /** From the header, raised by the catalog's /Version when that is later. */
  version: string;
  pageCount: number;
  pages: PdfPageFacts[];
  /** The document information dictionary, every text entry as it is (Title, Author, CreationDate...). */
  info: Record<string, string>;
  /** The XMP packet as text, null when there is none. */
  xmp: string | null;
  bookmarks: PdfBookmark[];
  formFields: PdfFormField[];
  attachments: PdfAttachment[];
  fonts: PdfFont[];
  images: PdfImagePlacement[];
  encryption: PdfEncryption | null;
  /** The catalog's /MarkInfo says Marked, and a structure tree is present. */
  tagged: boolean;
  structureTree: boolean;
  /** The PDF/A part and conformance the XMP claims ("2b", "3u"...), null when it claims none. */
  pdfA: string | null;
  /** The PDF/UA part the XMP claims ("1"), null when none. */
  pdfUa: string | null;
  signatures: PdfSignature[];
  /** The reports of the checks asked for (inspect-checks.ts), when any was. */
  checks?: InspectChecks;
  /** Scripts the document would run in a viewer (document-level JavaScript, an open action): reported, never run. */
  javascript: boolean;
}

/**
 * Reads everything inspect reports from `bytes` (decrypted, as readPdfInput gives them); the
 * encryption from `original` when the caller sent an encrypted file. A file pdf-lib cannot read
 * is a PdfInputError naming `field`.
 */
export async function inspectPdf(bytes: Uint8Array, field: string, original?: Uint8Array): Promise<PdfInspection> {
  const document = await readPdf(bytes, field);
  const encryption = original ? encryptionOf(await readPdf(original, field)) : null;
  const pages = document.getPages();
  const pageIndex = new Map(pages.map((page, index) => [page.ref.toString(), index + 1]));
  const xmpBytes = streamBytes(entry(document, document.catalog, 'Metadata'));
  const xmp = xmpBytes ? Buffer.from(xmpBytes).toString('utf8') : null;
  const markInfo = dictAt(document, document.catalog, 'MarkInfo');
  const { fields, signatures } = formOf(document);
  return {
    version: versionOf(original ?? bytes, nameAt(document, document.catalog, 'Version')),
    pageCount: pages.length,
    pages: pages.map((page, index) => {
      const box = page.getCropBox();
      const rotation = (((page.getRotation().angle % 360) + 360) % 360) as number;
      return { number: index + 1, width: round(box.width), height: round(box.height), rotation };
    }),
    info: infoOf(document),
    xmp,
    bookmarks: outlineOf(document, pageIndex),
    formFields: fields,
    attachments: attachmentsOf(document, pages),
    fonts: fontsOf(document),
    images: imagesOf(document, pages),
    encryption,
    tagged: boolAt(document, markInfo, 'Marked') === true,
    structureTree: document.catalog.has(PDFName.of('StructTreeRoot')),
    pdfA: xmp ? xmpClaim(xmp, 'pdfaid', 'part', 'conformance') : null,
    pdfUa: xmp ? xmpClaim(xmp, 'pdfuaid', 'part') : null,
    signatures,
    javascript: hasJavaScript(document),
  };
}

function round(points: number): number {
  return Math.round(points * 100) / 100;
}

function versionOf(bytes: Uint8Array, catalogVersion: string | undefined): string {
  const header = /%PDF-(\d\.\d)/.exec(Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1'))?.[1] ?? '1.0';
  return catalogVersion && /^\d\.\d$/.test(catalogVersion) && catalogVersion > header ? catalogVersion : header;
}

function infoOf(document: PDFDocument): Record<string, string> {
  const info = resolve(document, document.context.trailerInfo.Info);
  const out: Record<string, string> = {};
  if (!(info instanceof PDFDict)) return out;
  for (const [key, value] of info.entries()) {
    const text = textOf(resolve(document, value));
    if (text !== undefined) out[key.decodeText()] = text;
  }
  return out;
}

/** A claim of the XMP such as pdfaid:part="2" pdfaid:conformance="B" (attribute or element form), joined: "2b". */
function xmpClaim(xmp: string, prefix: string, ...names: string[]): string | null {
  const values = names.map((name) => {
    const pattern = new RegExp(`${prefix}:${name}\\s*=\\s*["']([^"']*)["']|<${prefix}:${name}>\\s*([^<]*?)\\s*</${prefix}:${name}>`);
    const match = pattern.exec(xmp);
    return match ? (match[1] ?? match[2] ?? '') : '';
  });
  return values[0] ? values.join('').toLowerCase() : null;
}

/** The bookmarks (outline.ts reads them), each with the page its destination opens. */
function outlineOf(document: PDFDocument, pageIndex: Map<string, number>): PdfBookmark[] {
  const convert = (entries: OutlineEntry[]): PdfBookmark[] =>
    entries.map((entry) => ({
      title: entry.title ?? '',
      page: entry.page ? (pageIndex.get(entry.page.toString()) ?? null) : null,
      children: convert(entry.children),
    }));
  return convert(readOutlineTree(document));
}

function hasJavaScript(document: PDFDocument): boolean {
  const names = dictAt(document, document.catalog, 'Names');
  if (dictAt(document, names, 'JavaScript')) return true;
  const open = entry(document, document.catalog, 'OpenAction');
  if (open instanceof PDFDict && ['JavaScript', 'Launch'].includes(nameAt(document, open, 'S') ?? '')) return true;
  // The catalog's additional actions (WC, WS, DS, WP, DP) are all scripts.
  return dictAt(document, document.catalog, 'AA') !== undefined;
}
