// docs/api.md#keys-and-plans: keys and plans.

import { callJson, call } from './client.ts';
import type { IssuedKey, KeyRecord, Plan } from './types.ts';

export interface KeyPage {
  data: KeyRecord[];
  next_cursor: string | null;
}

/** One page of live keys, newest first. */
export function listKeyPage(query: { limit?: number; cursor?: string }, signal?: AbortSignal): Promise<KeyPage> {
  const params = new URLSearchParams();
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.cursor !== undefined) params.set('cursor', query.cursor);
  const search = params.toString();
  return callJson<KeyPage>('GET', `/admin/v1/keys${search ? `?${search}` : ''}`, { admin: true, signal });
}

/** Every live key, newest first, page after page (the key pickers of the other screens). */
export async function listKeys(signal?: AbortSignal): Promise<KeyRecord[]> {
  const keys: KeyRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await listKeyPage({ limit: 100, cursor }, signal);
    keys.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return keys;
}

export function createKey(input: { name: string; plan: string; auto_store: boolean }): Promise<IssuedKey> {
  return callJson<IssuedKey>('POST', '/admin/v1/keys', { admin: true, body: input });
}

export function updateKey(id: string, change: Partial<Pick<KeyRecord, 'name' | 'plan' | 'auto_store' | 'receipts'>>): Promise<KeyRecord> {
  return callJson<KeyRecord>('PATCH', `/admin/v1/keys/${encodeURIComponent(id)}`, { admin: true, body: change });
}

export function rotateKey(id: string): Promise<IssuedKey> {
  return callJson<IssuedKey>('POST', `/admin/v1/keys/${encodeURIComponent(id)}/rotate`, { admin: true });
}

export async function revokeKey(id: string): Promise<void> {
  await call('DELETE', `/admin/v1/keys/${encodeURIComponent(id)}`, { admin: true });
}

export async function listPlans(signal?: AbortSignal): Promise<Plan[]> {
  return (await callJson<{ data: Plan[] }>('GET', '/admin/v1/plans', { admin: true, signal })).data;
}
