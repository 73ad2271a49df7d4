// docs/api.md#pdf-tools: inspect a PDF, draw its pages as images, a stored document's thumbnail.
// The admin window uses the admin routes (any key's documents, not charged); code calls the /v1 ones.

import { retryWhenBusy } from './busy-retry.ts';
import { call, callJson, filenameOf } from './client.ts';
import { turns } from './turns.ts';

/** A PDF to work on: an upload (base64) or a stored document, with the password of an encrypted one. */
export type PdfSource = ({ pdf: string } | { document_id: string }) & { password?: string };

export interface PdfInspection {
  version: string;
  page_count: number;
  pages: { number: number; width: number; height: number; rotation: number }[];
  info: Record<string, string>;
  xmp: string | null;
  bookmarks: PdfBookmark[];
  form_fields: { name: string; type: string; value: string | string[] | boolean | null; options?: string[]; read_only: boolean; required: boolean }[];
  attachments: { name: string; size: number | null; mime: string | null; description: string | null; relationship: string | null; page: number | null }[];
  fonts: { name: string | null; subset: boolean; type: string; embedded: boolean }[];
  images: {
    page: number;
    object: number | null;
    width: number;
    height: number;
    color_space: string | null;
    filter: string | null;
    x_dpi: number;
    y_dpi: number;
  }[];
  encryption: { method: string; key_bits: number; permissions: Record<string, boolean> } | null;
  tagged: boolean;
  structure_tree: boolean;
  pdf_a: string | null;
  pdf_ua: string | null;
  signatures: { field: string; signed: boolean; sub_filter: string | null; signer: string | null; signed_at: string | null }[];
  javascript: boolean;
}

export interface PdfBookmark {
  title: string;
  page: number | null;
  children: PdfBookmark[];
}

export interface ImagesOptions {
  pages?: string;
  format?: 'png' | 'jpeg' | 'webp';
  quality?: number;
  dpi?: number;
  width?: number;
}

/** The image formats the images endpoint draws, as a Select's choices. */
export const IMAGE_FORMATS = [
  { value: 'png', label: 'PNG' },
  { value: 'jpeg', label: 'JPEG' },
  { value: 'webp', label: 'WebP' },
];

/** The images endpoint's bounds of dpi (docs/api.md#pdf-tools). */
export const DPI_BOUNDS = { min: 10, max: 600, step: 1 };

export interface PageImage {
  page: number;
  width: number;
  height: number;
  content_type: string;
  filename: string;
  /** base64 */
  data: string;
}

export function inspectPdf(source: PdfSource, signal?: AbortSignal): Promise<PdfInspection> {
  return retryWhenBusy(() => callJson<PdfInspection>('POST', '/admin/v1/pdf/inspect', { admin: true, body: source, signal }), signal);
}

export function inspectDocument(id: string, signal?: AbortSignal): Promise<PdfInspection> {
  return retryWhenBusy(() => callJson<PdfInspection>('GET', `/admin/v1/documents/${encodeURIComponent(id)}/inspect`, { admin: true, signal }), signal);
}

/** The pages as images in a JSON list (previews). */
export async function pageImages(source: PdfSource, options: ImagesOptions, signal?: AbortSignal): Promise<PageImage[]> {
  const body = await retryWhenBusy(
    () => callJson<{ pages: PageImage[] }>('POST', '/admin/v1/pdf/images', { admin: true, body: { ...source, ...options, output: 'json' }, signal }),
    signal,
  );
  return body.pages;
}

/** The pages as images in one zip, with the name the server gave it. */
export async function imagesZip(source: PdfSource, options: ImagesOptions): Promise<{ bytes: Uint8Array; filename: string }> {
  const response = await call('POST', '/admin/v1/pdf/images', { admin: true, body: { ...source, ...options, output: 'zip' } });
  const filename = filenameOf(response.headers) ?? 'images.zip';
  return { bytes: new Uint8Array(await response.arrayBuffer()), filename };
}

/** Two thumbnails in flight at most, so the screen's own list requests always find a connection (lib/turns.ts). */
const thumbnailTurn = turns(2);

/** A stored document's page as a PNG, for an <img> (the admin token cannot ride on a src URL). */
export async function fetchThumbnail(id: string, width: number, signal?: AbortSignal): Promise<Blob> {
  const path = `/admin/v1/documents/${encodeURIComponent(id)}/thumbnail`;
  return thumbnailTurn(async () => {
    const response = await retryWhenBusy(() => call('GET', path, { admin: true, query: { width }, signal }), signal);
    return response.blob();
  }, signal);
}

/** A file's bytes as base64 (the JSON body's form of an upload). */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = '';
  // In slices: String.fromCharCode takes a bounded number of arguments.
  for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(text);
}
