// The key's stored templates and documents as MCP resources: listed a page at a time (templates,
// then documents) and read by URI, through the same /v1 calls as any client, so another key's
// template or document is not found here either.

import { McpError, ErrorCode, type ReadResourceResult, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { type ApiCaller, jsonOf, problemOf } from './api-caller.ts';
import { placeholdersOf } from './placeholders.ts';
import { documentUri, templateUri } from './results.ts';
import { segment } from './tool-spec.ts';

const PAGE = 100;

interface Page<T> {
  data: T[];
  next_cursor: string | null;
}
interface TemplateSummary {
  template_id: string;
  name: string;
  format: string;
  updated_at: string;
}
interface DocumentSummary {
  id: string;
  filename: string | null;
  size: number;
  pages: number | null;
  expires_at: string;
}

/** Where listing goes on: which collection and its API cursor (opaque to the client). */
interface Cursor {
  kind: 'templates' | 'documents';
  cursor?: string;
}

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'quire://templates/{template_id}',
    name: 'template',
    description: 'A stored template of this key (JSON: text, sample data, placeholders).',
    mimeType: 'application/json',
  },
  { uriTemplate: 'quire://documents/{document_id}', name: 'document', description: 'A stored document of this key (the PDF).', mimeType: 'application/pdf' },
];

/** One page of resources: templates first, then documents (the last page of templates carries the first of documents). */
export async function listResources(api: ApiCaller, cursorText: string | undefined): Promise<{ resources: Resource[]; nextCursor?: string }> {
  const at = decodeCursor(cursorText);
  const query = `?limit=${PAGE}${at.cursor ? `&cursor=${encodeURIComponent(at.cursor)}` : ''}`;
  if (at.kind === 'templates') {
    const page = await listed<TemplateSummary>(api, `/v1/templates${query}`);
    const resources = page.data.map((t) => ({
      uri: templateUri(t.template_id),
      name: t.name,
      title: `Template: ${t.name}`,
      mimeType: 'application/json',
      description: `${t.format} template ${t.template_id}, updated ${t.updated_at}`,
    }));
    if (page.next_cursor) return { resources, nextCursor: encodeCursor({ kind: 'templates', cursor: page.next_cursor }) };
    // The last page of templates goes on with the first page of documents.
    const documents = await listResources(api, encodeCursor({ kind: 'documents' }));
    return { ...documents, resources: [...resources, ...documents.resources] };
  }
  const page = await listed<DocumentSummary>(api, `/v1/documents${query}`);
  const resources = page.data.map((d) => ({
    uri: documentUri(d.id),
    name: d.filename ?? `${d.id}.pdf`,
    mimeType: 'application/pdf',
    size: d.size,
    description: `${d.pages ?? '?'} page(s), ${d.size} bytes, kept until ${d.expires_at}`,
  }));
  return { resources, ...(page.next_cursor ? { nextCursor: encodeCursor({ kind: 'documents', cursor: page.next_cursor }) } : {}) };
}

/** Reads quire://templates/{id} (JSON with its placeholders) or quire://documents/{id} (the PDF). */
export async function readResource(api: ApiCaller, uri: string): Promise<ReadResourceResult> {
  const match = /^quire:\/\/(templates|documents)\/([A-Za-z0-9_]+)$/.exec(uri);
  if (!match) throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${uri}: Quire serves quire://templates/{id} and quire://documents/{id}.`);
  const [, kind, id] = match;
  const answer = await api('GET', `/v1/${kind}/${segment(id)}`);
  const problem = problemOf(answer);
  if (problem)
    throw new McpError(problem.status === 404 || problem.status === 410 ? ErrorCode.InvalidParams : ErrorCode.InternalError, problem.detail, problem);
  if (kind === 'documents') return { contents: [{ uri, mimeType: 'application/pdf', blob: Buffer.from(answer.bytes).toString('base64') }] };
  const template = jsonOf(answer) as Record<string, unknown>;
  const text = JSON.stringify({ ...template, placeholders: placeholdersOf(String(template.html ?? '')) }, null, 2);
  return { contents: [{ uri, mimeType: 'application/json', text }] };
}

async function listed<T>(api: ApiCaller, path: string): Promise<Page<T>> {
  const answer = await api('GET', path);
  const problem = problemOf(answer);
  if (problem) throw new McpError(ErrorCode.InternalError, problem.detail, problem);
  return jsonOf(answer) as Page<T>;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string | undefined): Cursor {
  if (!text) return { kind: 'templates' };
  try {
    const cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
    if (cursor.kind === 'templates' || cursor.kind === 'documents') return cursor;
  } catch {
    // fall through
  }
  throw new McpError(ErrorCode.InvalidParams, 'The cursor is not one this server gave.');
}
