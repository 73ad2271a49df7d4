// docs/api.md#documents-templates-and-batches-of-every-key: stored documents of every key.

import { call, callJson, callPdf, type PdfResponse } from './client.ts';
import type { Page, StoredDocument } from './types.ts';

export function listDocuments(query: { key_id?: string; cursor?: string; limit?: number }, signal?: AbortSignal): Promise<Page<StoredDocument>> {
  return callJson<Page<StoredDocument>>('GET', '/admin/v1/documents', { admin: true, query, signal });
}

export function fetchDocument(id: string, signal?: AbortSignal): Promise<PdfResponse> {
  return callPdf('GET', `/admin/v1/documents/${encodeURIComponent(id)}`, { admin: true, signal });
}

export async function deleteDocument(id: string): Promise<void> {
  await call('DELETE', `/admin/v1/documents/${encodeURIComponent(id)}`, { admin: true });
}
