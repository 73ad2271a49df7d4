// docs/api.md#documents-templates-and-batches-of-every-key: batches of every key, one with its webhook delivery attempts.

import { callJson } from './client.ts';
import type { Batch, Page } from './types.ts';

export function listBatches(query: { key_id?: string; cursor?: string; limit?: number }, signal?: AbortSignal): Promise<Page<Batch>> {
  return callJson<Page<Batch>>('GET', '/admin/v1/batches', { admin: true, query, signal });
}

export function getBatch(id: string, signal?: AbortSignal): Promise<Batch> {
  return callJson<Batch>('GET', `/admin/v1/batches/${encodeURIComponent(id)}`, { admin: true, signal });
}
