// Batch calls for tests: the wire shapes of docs/api.md#batches, posting a batch, and waiting
// (by polling GET, never by sleeping a fixed time) until one completes.

import { bearer, type IssuedKey, type TestServer } from './start-app.ts';

export interface BatchResultJson {
  index: number;
  status: 'queued' | 'rendering' | 'succeeded' | 'failed';
  document_id?: string;
  filename?: string;
  error?: { code: string; detail: string };
}

export interface BatchJson {
  batch_id: string;
  status: 'queued' | 'processing' | 'completed';
  total: number;
  succeeded: number;
  failed: number;
  created_at: string;
  completed_at: string | null;
  results: BatchResultJson[];
}

export interface AttemptJson {
  attempt: number;
  at: string;
  status_code: number | null;
  ok: boolean;
  error: { code: string; detail: string } | null;
  duration_ms: number;
  next_attempt_at: string | null;
}

export interface AdminBatchJson extends BatchJson {
  key_id: string;
  webhook_url: string | null;
  webhook_status: 'waiting' | 'pending' | 'delivered' | 'failed' | null;
  deliveries: AttemptJson[];
}

/** POST /v1/pdf/batch with a key (the server's default one unless given). */
export function postBatch(server: TestServer, body: unknown, key?: IssuedKey): Promise<Response> {
  return server.request('POST', '/v1/pdf/batch', body, key ? bearer(key) : {});
}

/** GET /v1/pdf/batch/{id} until `done` holds (default: completed); fails after timeoutMs. */
export async function waitForBatch(
  server: TestServer,
  id: string,
  key?: IssuedKey,
  done: (batch: BatchJson) => boolean = (batch) => batch.status === 'completed',
  timeoutMs = 60_000,
): Promise<BatchJson> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await server.request('GET', `/v1/pdf/batch/${id}`, undefined, key ? bearer(key) : {});
    if (response.status !== 200) throw new Error(`GET batch answered ${response.status}: ${await response.text()}`);
    const batch = (await response.json()) as BatchJson;
    if (done(batch)) return batch;
    if (Date.now() > deadline) throw new Error(`batch ${id} did not get there in time: ${JSON.stringify(batch).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** GET /admin/v1/batches/{id} until `done` holds. */
export async function waitForAdminBatch(server: TestServer, id: string, done: (batch: AdminBatchJson) => boolean, timeoutMs = 60_000): Promise<AdminBatchJson> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const batch = (await (await server.admin('GET', `/admin/v1/batches/${id}`)).json()) as AdminBatchJson;
    if (done(batch)) return batch;
    if (Date.now() > deadline) throw new Error(`batch ${id} did not get there in time: ${JSON.stringify(batch).slice(0, 800)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** n html items, numbered. */
export function htmlItems(n: number, extra: Record<string, unknown> = {}): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({ html: `<h1>Item ${i}</h1>`, ...extra }));
}

/** Fast renders: nothing to wait for after load. */
export const FAST = { wait_until: 'load' };
