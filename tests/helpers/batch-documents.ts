// Shared by tests/api/batches*.test.ts: a key's stored documents and its usage this month.

import { bearer, type IssuedKey, type TestServer } from './start-app.ts';

export interface DocumentJson {
  id: string;
  filename: string | null;
  source: 'render' | 'batch';
  batch_id?: string;
}

export async function documentsOf(server: TestServer, key: IssuedKey): Promise<DocumentJson[]> {
  const response = await server.request('GET', '/v1/documents?limit=100', undefined, bearer(key));
  return ((await response.json()) as { data: DocumentJson[] }).data;
}

export async function usedThisMonth(server: TestServer, key: IssuedKey): Promise<number> {
  return ((await (await server.admin('GET', `/admin/v1/keys/${key.id}`)).json()) as { usage: { used: number } }).usage.used;
}
