// Hostile and bad PDF inputs to the transform route (docs/api.md#pdf-inputs).

import { encryptedPdf, HOSTILE_PDFS, rawPdf } from '../pdf-cli.ts';
import { type BadRequest, base64 } from './bad-request.ts';

const TRANSFORM = '/v1/pdf/transform';
const onePage = rawPdf([
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
]);
const transformOf = (pdf: Uint8Array, extra: Record<string, unknown> = {}) => ({ pdf: base64(pdf), steps: [{ op: 'flatten' }], ...extra });

export /** Hostile and bad PDF inputs (docs/api.md#pdf-inputs): refused with their code, never obeyed. */
const PDF_CASES: BadRequest[] = [
  {
    name: 'a transform of an encrypted PDF without its password',
    path: TRANSFORM,
    body: transformOf(encryptedPdf(onePage, 'secret')),
    status: 422,
    code: 'password_required',
    names: 'password',
  },
  {
    name: 'a transform with the wrong password',
    path: TRANSFORM,
    body: transformOf(encryptedPdf(onePage, 'secret'), { password: 'guess' }),
    status: 422,
    code: 'password_incorrect',
    names: 'pdf',
  },
  {
    name: 'a transform of a PDF damaged beyond repair',
    path: TRANSFORM,
    body: transformOf(HOSTILE_PDFS.garbage()),
    status: 422,
    code: 'pdf_unreadable',
    names: 'pdf',
  },
  {
    name: 'a transform of a cyclic page tree',
    path: TRANSFORM,
    body: transformOf(HOSTILE_PDFS.cyclicPages()),
    status: 422,
    code: 'pdf_unreadable',
    names: 'pdf',
  },
  {
    name: 'a transform of a page bomb (2001 pages)',
    path: TRANSFORM,
    body: transformOf(HOSTILE_PDFS.pages(2001)),
    status: 413,
    code: 'payload_too_large',
    names: '2001 pages',
  },
  {
    name: 'a transform of an image bomb (20000 × 20000)',
    path: TRANSFORM,
    body: transformOf(HOSTILE_PDFS.imageBomb()),
    status: 413,
    code: 'payload_too_large',
    names: 'million pixels',
  },
  {
    name: 'a transform of a decompression bomb (a 1 MB Flate stream of zeros unpacking to 1 GB)',
    path: TRANSFORM,
    body: transformOf(HOSTILE_PDFS.decompressionBomb()),
    status: 413,
    code: 'payload_too_large',
    names: 'decompression bomb',
  },
  {
    name: 'a transform of bytes that are not a PDF',
    path: TRANSFORM,
    body: { pdf: base64(new TextEncoder().encode('hello')), steps: [{ op: 'flatten' }] },
    status: 422,
    code: 'pdf_unreadable',
    names: 'pdf',
  },
  { name: 'a transform without a PDF', path: TRANSFORM, body: { steps: [{ op: 'flatten' }] }, status: 400, code: 'invalid_request', names: 'document_id' },
  {
    name: 'a transform with an unknown step',
    path: TRANSFORM,
    body: { pdf: base64(onePage), steps: [{ op: 'explode' }] },
    status: 400,
    code: 'invalid_request',
    names: 'steps[0]',
  },
  {
    name: 'a transform rotating by 45 degrees',
    path: TRANSFORM,
    body: { pdf: base64(onePage), steps: [{ op: 'rotate', angle: 45 }] },
    status: 400,
    code: 'invalid_request',
    names: 'steps[0].angle',
  },
  {
    name: 'a transform with steps and preset_id',
    path: TRANSFORM,
    body: { pdf: base64(onePage), steps: [{ op: 'flatten' }], preset_id: 'pre_abc' },
    status: 400,
    code: 'invalid_request',
    names: 'preset_id',
  },
  {
    name: 'a transform with an unknown preset',
    path: TRANSFORM,
    body: { pdf: base64(onePage), preset_id: 'pre_doesNotExist' },
    status: 404,
    code: 'preset_not_found',
    names: 'pre_doesNotExist',
  },
  {
    name: 'a transform of another key’s kind of id',
    path: TRANSFORM,
    body: { document_id: 'doc_missing1', steps: [{ op: 'flatten' }] },
    status: 404,
    code: 'document_not_found',
    names: 'document_id',
  },
];
