// The CLI's way to change keys while a server owns DATA_DIR (stores/data-dir-lock.ts): the same
// key operations through that server's admin API, so one process alone writes the files.
// The admin token is ADMIN_TOKEN if set, else DATA_DIR/admin-token (the server's own).

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PlanFileEntry } from './accounts/plans.ts';
import type { ReceiptMode } from './stores/keys.ts';

/** A key as the CLI prints it: the admin API's wire form. */
export interface WireKey {
  id: string;
  name: string;
  plan: string;
  auto_store: boolean;
  receipts?: ReceiptMode;
  created_at: string;
  usage?: { month: string; used: number | null; limit: number };
}

/** What the CLI's key commands need, from the services (no server) or from the admin API. */
export interface KeyAdmin {
  create(request: { name: string; plan: string; autoStore: boolean; receipts: ReceiptMode }): Promise<{ key: string }>;
  /** Every live key with usage, oldest first. */
  list(): Promise<WireKey[]>;
  rotate(id: string): Promise<{ key: string }>;
  revoke(id: string): Promise<void>;
  plans(): Promise<PlanFileEntry[]>;
}

/** The admin API refused a call: its `{detail, code}`. */
export class AdminApiError extends Error {
  constructor(
    readonly code: string,
    detail: string,
  ) {
    super(detail);
  }
}

/** Calls the admin API of the server at baseUrl with the admin token (ADMIN_TOKEN or DATA_DIR/admin-token). */
export async function adminCaller(
  baseUrl: string,
  dataDir: string,
  adminToken: string,
): Promise<<T>(method: string, route: string, body?: unknown) => Promise<T>> {
  const token = adminToken || (await readFile(path.join(dataDir, 'admin-token'), 'utf8').catch(() => '')).trim();
  if (!token) throw new AdminApiError('unauthorized', `a server owns ${dataDir} at ${baseUrl}; set ADMIN_TOKEN to its admin token so the CLI can call it`);
  return async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const response = await fetch(new URL(route, baseUrl), {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (response.status === 204) return undefined as T;
    const json = (await response.json().catch(() => ({}))) as { detail?: string; code?: string };
    if (!response.ok) throw new AdminApiError(json.code ?? 'internal_error', `${json.detail ?? `HTTP ${response.status}`} (server at ${baseUrl})`);
    return json as T;
  };
}

/** A KeyAdmin that calls the server at baseUrl. */
export async function adminApiClient(baseUrl: string, dataDir: string, adminToken: string): Promise<KeyAdmin> {
  const call = await adminCaller(baseUrl, dataDir, adminToken);
  return {
    create: (request) => call('POST', '/admin/v1/keys', { name: request.name, plan: request.plan, auto_store: request.autoStore, receipts: request.receipts }),
    async list() {
      const keys: WireKey[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page: { data: WireKey[]; next_cursor: string | null } = await call('GET', `/admin/v1/keys${query}`);
        keys.push(...page.data);
        cursor = page.next_cursor;
      } while (cursor);
      return keys.reverse();
    },
    rotate: (id) => call('POST', `/admin/v1/keys/${encodeURIComponent(id)}/rotate`),
    revoke: (id) => call('DELETE', `/admin/v1/keys/${encodeURIComponent(id)}`),
    plans: async () => (await call<{ data: PlanFileEntry[] }>('GET', '/admin/v1/plans')).data,
  };
}
