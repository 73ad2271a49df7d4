// CONTRACT.md, Admin interface: keys and plans.

import { callJson, call } from './client.ts';
import type { IssuedKey, KeyRecord, Plan } from './types.ts';

export async function listKeys(signal?: AbortSignal): Promise<KeyRecord[]> {
  return (await callJson<{ data: KeyRecord[] }>('GET', '/admin/v1/keys', { admin: true, signal })).data;
}

export function createKey(input: { name: string; plan: string; auto_store: boolean }): Promise<IssuedKey> {
  return callJson<IssuedKey>('POST', '/admin/v1/keys', { admin: true, body: input });
}

export function updateKey(id: string, change: Partial<Pick<KeyRecord, 'name' | 'plan' | 'auto_store'>>): Promise<KeyRecord> {
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
