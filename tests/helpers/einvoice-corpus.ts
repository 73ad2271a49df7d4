// The shared e-invoice corpus (../shared/einvoice-corpus beside the repository, never copied in) and
// the small HTTP steps the e-invoice reading tests share: post a PDF itself as the body, take a PDF
// answer, and make a hybrid PDF of an XML through our own render route.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { bearer, type TestServer } from './start-app.ts';

export const CORPUS = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'einvoice-corpus');
/** node:test's skip option: a reason when the corpus is not there. */
export const corpusSkip = existsSync(path.join(CORPUS, 'expected.json')) ? false : `the shared corpus is not at ${CORPUS}`;

export const corpusFile = (name: string) => readFileSync(path.join(CORPUS, name), 'utf8');

export interface CorpusVerdict {
  syntax: 'CII' | 'UBL';
  fatal: Record<string, string[]>;
}

/** Every file of expected.json with the official fatal ids per rule set. */
export function corpusVerdicts(): Record<string, CorpusVerdict> {
  return JSON.parse(readFileSync(path.join(CORPUS, 'expected.json'), 'utf8')).files;
}

/** The PDF itself as the body (TestServer.request would send a byte array as JSON). */
export function postPdf(server: TestServer, pdf: Uint8Array, route = '/v1/einvoice/inspect'): Promise<Response> {
  return fetch(`${server.url}${route}`, { method: 'POST', body: Buffer.from(pdf), headers: { ...bearer(server.key), 'content-type': 'application/pdf' } });
}

/** The bytes of a 200 PDF answer; anything else fails with what the server said. */
export async function pdfOf(response: Response): Promise<Uint8Array> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, `expected a PDF, got ${response.status}: ${Buffer.from(bytes.subarray(0, 600)).toString()}`);
  return bytes;
}

/** A file for options.attachments. */
export const xmlAttachment = (filename: string, xml: string, relationship = 'Alternative') => ({
  filename,
  content: Buffer.from(xml).toString('base64'),
  mime_type: 'text/xml',
  relationship,
});
