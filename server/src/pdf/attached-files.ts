// The files attached to a PDF with their bytes, for reading a hybrid e-invoice (Factur-X, ZUGFeRD,
// XRechnung in a PDF/A-3): every file of the EmbeddedFiles name tree, described as inspect does,
// and the unpacked bytes of those that can be XML. Runs on the PDF worker on a PDF readPdfInput opened.

import type { PDFDocument } from '@cantoo/pdf-lib';
import { describeFile, embeddedStreamOf } from './inspect-resources.ts';
import { embeddedFileSpecs } from './pdf-objects.ts';
import { readPdf } from './pdf-read.ts';
import { streamBytes } from './pdf-values.ts';

export interface AttachedFile {
  name: string;
  /** Source, Data, Alternative, Supplement, Unspecified, or null when the file says none. */
  relationship: string | null;
  mime: string | null;
  /** Set for a file named *.xml or typed as XML: the only ones an invoice can be. */
  bytes?: Uint8Array;
}

/** What the worker answers: an object, so its files are copied to the server, not moved. */
export interface AttachedFiles {
  files: AttachedFile[];
}

export async function attachedFiles(pdf: Uint8Array, field: string): Promise<AttachedFiles> {
  const document = await readPdf(pdf, field);
  return { files: embeddedFileSpecs(document).map(({ name, spec }) => attached(document, spec, name)) };
}

function attached(document: PDFDocument, spec: Parameters<typeof embeddedStreamOf>[1], treeName: string): AttachedFile {
  const { name, relationship, mime } = describeFile(document, spec, treeName, null);
  const xml = /\.xml$/i.test(name) || /xml/i.test(mime ?? '');
  const bytes = xml ? streamBytes(embeddedStreamOf(document, spec)) : undefined;
  return { name, relationship, mime, ...(bytes ? { bytes } : {}) };
}
