// What a tool call answers, from what the API answered: a PDF as an embedded resource with its page
// count and size in a text part (a resource_link to its stored document past the inline limit),
// JSON as text, and an API error as a tool error (isError) carrying our {code, detail}.

import { PDFDocument } from '@cantoo/pdf-lib';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type ApiAnswer, type ApiProblem, jsonOf, problemOf } from './api-caller.ts';

/** The URI a stored document is read under (resources.ts). */
export const documentUri = (id: string) => `quire://documents/${id}`;
/** The URI a template is read under (resources.ts). */
export const templateUri = (id: string) => `quire://templates/${id}`;

/** Past this many bytes a PDF's pages are not counted (the count would cost more than it tells). */
const COUNT_PAGES_UP_TO = 32 * 1024 * 1024;

/** A refusal as a tool error: the model reads code and detail and can correct its call. */
export function problemResult(problem: ApiProblem): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(problem) }], structuredContent: { ...problem } };
}

/** JSON the API answered, as text and structured content; an error answer as a tool error. */
export function jsonResult(answer: ApiAnswer, shape: (json: Record<string, unknown>) => Record<string, unknown> = (json) => json): CallToolResult {
  const problem = problemOf(answer);
  if (problem) return problemResult(problem);
  const json = shape((jsonOf(answer) ?? {}) as Record<string, unknown>);
  return { content: [{ type: 'text', text: JSON.stringify(json, null, 2) }], structuredContent: json };
}

/** Text the API answered (an XML document), as text; an error answer as a tool error. */
export function textResult(answer: ApiAnswer, mimeType: string, uri: string): CallToolResult {
  const problem = problemOf(answer);
  if (problem) return problemResult(problem);
  return { content: [{ type: 'resource', resource: { uri, mimeType, text: Buffer.from(answer.bytes).toString('utf8') } }] };
}

/**
 * A PDF answer: the facts (pages, bytes, document id, receipt, usage) as text and structured
 * content, and the PDF itself inline up to inlineMaxBytes, else a link to its stored copy.
 */
export async function pdfResult(answer: ApiAnswer, inlineMaxBytes: number): Promise<CallToolResult> {
  const problem = problemOf(answer);
  if (problem) return problemResult(problem);
  const documentId = answer.headers.get('x-document-id') ?? undefined;
  const filename = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(answer.headers.get('content-disposition') ?? '')?.[1];
  const facts = {
    pages: await pageCount(answer.bytes),
    bytes: answer.bytes.byteLength,
    ...(documentId ? { document_id: documentId, document_uri: documentUri(documentId) } : {}),
    ...(filename ? { filename: decodeURIComponent(filename) } : {}),
    ...headerFacts(answer.headers),
  };
  const name = facts.filename ?? `${documentId ?? 'document'}.pdf`;
  const text = { type: 'text' as const, text: JSON.stringify(facts) };
  if (answer.bytes.byteLength > inlineMaxBytes && documentId)
    return {
      content: [text, { type: 'resource_link', uri: documentUri(documentId), name, mimeType: 'application/pdf', size: answer.bytes.byteLength }],
      structuredContent: facts,
    };
  const uri = documentId ? documentUri(documentId) : `quire://results/${encodeURIComponent(name)}`;
  return {
    content: [text, { type: 'resource', resource: { uri, mimeType: 'application/pdf', blob: Buffer.from(answer.bytes).toString('base64') } }],
    structuredContent: facts,
  };
}

/** The receipt, usage and report headers a PDF answer carries, as facts for the model. */
function headerFacts(headers: Headers): Record<string, string> {
  const named: Record<string, string> = {
    receipt: 'x-render-receipt',
    usage: 'x-service-usage',
    limit: 'x-service-limit',
    einvoice_report: 'x-e-invoice-report',
    signature: 'x-pdf-signature',
    conformance: 'x-pdf-conformance',
  };
  return Object.fromEntries(Object.entries(named).flatMap(([fact, header]) => (headers.get(header) ? [[fact, headers.get(header)!]] : [])));
}

/** The PDF's page count, or null when it is too large to count cheaply or does not read. */
export async function pageCount(bytes: Uint8Array): Promise<number | null> {
  if (bytes.byteLength > COUNT_PAGES_UP_TO) return null;
  try {
    return (await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false })).getPageCount();
  } catch {
    return null;
  }
}
