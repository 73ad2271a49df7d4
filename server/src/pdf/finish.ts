// Applies the post-processing options to printed PDF bytes: metadata (information dictionary and
// XMP), a text or image watermark drawn as PDF content, and AES-256 encryption, in that order.
// Pure and synchronous in spirit: runs inside the PDF worker thread (pdf-worker.ts), never on
// the server's event loop. @cantoo/pdf-lib: a maintained pdf-lib fork that can also encrypt.

import { PDFArray, PDFDocument, PDFName, StandardFonts, degrees, rgb, type PDFFont, type PDFImage, type PDFPage } from '@cantoo/pdf-lib';
import type { FinishOptions, PdfEncryption, PdfMetadata, PdfWatermark } from './finish-options.ts';
import { selectPages } from './page-list.ts';
import { metadataXmp } from './xmp.ts';
import { FinishInputError } from './pdf-errors.ts';

/** The PDF with the options applied. */
export async function finish(bytes: Uint8Array, options: FinishOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  await applyFinish(doc, options);
  return doc.save();
}

/** Applies the options to a loaded document (merge.ts shares it). */
export async function applyFinish(doc: PDFDocument, options: FinishOptions): Promise<void> {
  if (options.metadata) writeMetadata(doc, options.metadata);
  if (options.watermark) await drawWatermark(doc, options.watermark);
  if (options.encrypt) encrypt(doc, options.encrypt);
}

function writeMetadata(doc: PDFDocument, metadata: PdfMetadata): void {
  // Chromium already wrote the page's <title>: it stays unless the request names another.
  if (metadata.title !== undefined) doc.setTitle(metadata.title);
  if (metadata.author !== undefined) doc.setAuthor(metadata.author);
  if (metadata.subject !== undefined) doc.setSubject(metadata.subject);
  if (metadata.keywords !== undefined) doc.setKeywords(metadata.keywords);
  if (metadata.creator !== undefined) doc.setCreator(metadata.creator);
  const now = new Date();
  doc.setModificationDate(now);
  const xmp = metadataXmp({
    title: doc.getTitle(),
    author: doc.getAuthor(),
    subject: doc.getSubject(),
    keywords: metadata.keywords,
    creator: doc.getCreator(),
    producer: doc.getProducer(),
    created: doc.getCreationDate() ?? now,
    modified: now,
  });
  const stream = doc.context.stream(xmp, { Type: 'Metadata', Subtype: 'XML' });
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
}

function encrypt(doc: PDFDocument, options: PdfEncryption): void {
  const { permissions } = options;
  doc.encrypt({
    algorithm: 'AES-256',
    ownerPassword: options.owner_password,
    userPassword: options.user_password ?? '',
    permissions: {
      printing: permissions.print === 'none' ? false : permissions.print === 'low' ? 'lowResolution' : 'highResolution',
      copying: permissions.copy,
      // Accessibility extraction stays allowed: screen readers are not copying.
      contentAccessibility: true,
      modifying: permissions.modify,
      documentAssembly: permissions.modify,
      annotating: permissions.annotate,
      fillingForms: permissions.fill_forms,
    },
  });
}

const EDGE = 36; // 0.5 in from the page edges

async function drawWatermark(doc: PDFDocument, mark: PdfWatermark): Promise<void> {
  const pages = doc.getPages();
  const indexes = mark.pages ? [...new Set(selectPages(mark.pages, pages.length).indexes)] : pages.map((_, index) => index);
  if (indexes.length === 0) return;
  const font = mark.text !== undefined ? await doc.embedFont(StandardFonts.Helvetica) : undefined;
  const image = mark.image !== undefined ? await embedImage(doc, mark.image) : undefined;
  for (const index of indexes) {
    const page = pages[index]!;
    if (font) drawText(page, font, mark);
    else drawImage(page, image!, mark);
    if (mark.layer === 'under') moveLastContentFirst(page);
  }
}

function drawText(page: PDFPage, font: PDFFont, mark: PdfWatermark): void {
  const text = mark.text!;
  const size = mark.font_size;
  const box = { width: font.widthOfTextAtSize(text, size), height: font.heightAtSize(size, { descender: false }) };
  const { x, y } = placement(page, box, mark);
  page.drawText(text, { x, y, size, font, color: colorOf(mark.color), opacity: mark.opacity, rotate: degrees(mark.rotate) });
}

function drawImage(page: PDFPage, image: PDFImage, mark: PdfWatermark): void {
  // 96 dpi, as CSS draws an image; shrunk (never grown) to fit inside the edges.
  const { width: pageWidth, height: pageHeight } = page.getSize();
  const natural = { width: image.width * 0.75, height: image.height * 0.75 };
  const fit = Math.min(1, (pageWidth - 2 * EDGE) / natural.width, (pageHeight - 2 * EDGE) / natural.height);
  const box = { width: natural.width * fit, height: natural.height * fit };
  const { x, y } = placement(page, box, mark);
  page.drawImage(image, { x, y, ...box, opacity: mark.opacity, rotate: degrees(mark.rotate) });
}

/**
 * Where to put the origin of a box rotated about that origin, so that the rotated box sits at
 * mark.position (its centre at the page centre, or its bounding box against the edges).
 */
function placement(page: PDFPage, box: { width: number; height: number }, mark: PdfWatermark): { x: number; y: number } {
  const { width, height } = page.getSize();
  const angle = (mark.rotate * Math.PI) / 180;
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const halfX = Math.abs((box.width / 2) * cos) + Math.abs((box.height / 2) * sin);
  const halfY = Math.abs((box.width / 2) * sin) + Math.abs((box.height / 2) * cos);
  const [vertical, horizontal] = mark.position === 'center' ? ['', ''] : positionParts(mark.position);
  const centreX = horizontal === 'left' ? EDGE + halfX : horizontal === 'right' ? width - EDGE - halfX : width / 2;
  const centreY = vertical === 'top' ? height - EDGE - halfY : vertical === 'bottom' ? EDGE + halfY : height / 2;
  // The box centre relative to its origin, rotated.
  const offsetX = (box.width / 2) * cos - (box.height / 2) * sin;
  const offsetY = (box.width / 2) * sin + (box.height / 2) * cos;
  return { x: centreX - offsetX, y: centreY - offsetY };
}

function positionParts(position: PdfWatermark['position']): [string, string] {
  if (position === 'left' || position === 'right') return ['', position];
  const [vertical, horizontal = ''] = position.split('-');
  return [vertical!, horizontal];
}

/** Puts the content stream just drawn before the page's own, so the page paints over it. */
function moveLastContentFirst(page: PDFPage): void {
  const contents = page.node.Contents();
  if (!(contents instanceof PDFArray) || contents.size() < 2) return;
  const last = contents.get(contents.size() - 1);
  contents.remove(contents.size() - 1);
  contents.insert(0, last);
}

async function embedImage(doc: PDFDocument, dataUri: string): Promise<PDFImage> {
  const [, type = '', base64 = ''] = /^data:image\/(png|jpeg|jpg);base64,(.*)$/s.exec(dataUri) ?? [];
  const bytes = Buffer.from(base64.replace(/\s+/g, ''), 'base64');
  try {
    return type === 'png' ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
  } catch {
    throw new FinishInputError('options.watermark.image', `options.watermark.image is not a valid ${type === 'png' ? 'PNG' : 'JPEG'} image`);
  }
}

function colorOf(hex: string) {
  const value = Number.parseInt(hex.slice(1), 16);
  return rgb(((value >> 16) & 255) / 255, ((value >> 8) & 255) / 255, (value & 255) / 255);
}
