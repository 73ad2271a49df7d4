// Durability of background batches against the real server process (docs/api.md#batches: "a
// server restart mid-batch finishes the batch without losing or double-charging items"): kill -9
// twice in the middle of a 30-item batch, start again on the same DATA_DIR each time, and count:
// every item succeeded once, one document per item and no other, one charge per document.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { callServer, serverStarter, type ServerProcess } from '../helpers/server-process.ts';
import type { BatchJson } from '../helpers/batches.ts';

const ADMIN_TOKEN = 'adm_batch_crash_token_0123456789';

const call = callServer;

async function batchOf(server: ServerProcess, key: string, id: string): Promise<BatchJson> {
  return (await (await call(server, 'GET', `/v1/pdf/batch/${id}`, key)).json()) as BatchJson;
}

async function waitUntil(server: ServerProcess, key: string, id: string, done: (batch: BatchJson) => boolean): Promise<BatchJson> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const batch = await batchOf(server, key, id);
    if (done(batch)) return batch;
    if (Date.now() > deadline) throw new Error(`batch stuck: ${JSON.stringify(batch).slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('kill -9 twice in the middle of a background batch: after restarts it completes with every item rendered, stored and charged exactly once', {
  timeout: 300_000,
}, async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-batch-crash-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const start = serverStarter(t, { DATA_DIR: dataDir, ADMIN_TOKEN });

  let server = await start();
  const issued = (await (await call(server, 'POST', '/admin/v1/keys', ADMIN_TOKEN, { name: 'crash', plan: 'business' })).json()) as { id: string; key: string };
  const items = Array.from({ length: 30 }, (_, i) => ({
    html: `<h1>Invoice ${i}</h1>${'<p>line of the invoice</p>'.repeat(40)}`,
    filename: `invoice-${i}.pdf`,
  }));
  const accepted = await call(server, 'POST', '/v1/pdf/batch', issued.key, { requests: items, options: { wait_until: 'load', wait_ms: 120 } });
  assert.equal(accepted.status, 202);
  const { batch_id: id } = (await accepted.json()) as BatchJson;
  const stateFile = path.join(dataDir, 'batches', id, 'state.json');

  const caught: string[] = [];
  for (const atLeast of [5, 15]) {
    await waitUntil(server, issued.key, id, (batch) => batch.succeeded >= atLeast);
    await server.crash();
    // What the kill left on disk: some items ended, some caught rendering, the rest queued.
    const state = JSON.parse(await readFile(stateFile, 'utf8')) as { status: string; items: { status: string }[] };
    caught.push(state.items.map((item) => item.status[0]).join(''));
    assert.notEqual(state.status, 'completed', 'killed in the middle');
    server = await start();
  }
  t.diagnostic(`item states at the kills (s succeeded, r rendering, q queued): ${caught.join(' / ')}`);

  const done = await waitUntil(server, issued.key, id, (batch) => batch.status === 'completed');
  assert.deepEqual([done.total, done.succeeded, done.failed], [30, 30, 0], 'no item lost');
  const documentIds = done.results.map((result) => result.document_id!);
  assert.equal(new Set(documentIds).size, 30);
  assert.deepEqual(
    done.results.map((result) => result.filename),
    items.map((item) => item.filename),
  );

  const listed = (await (await call(server, 'GET', `/admin/v1/documents?key_id=${issued.id}&limit=100`, ADMIN_TOKEN)).json()) as {
    data: { id: string; source: string; batch_id?: string; size: number }[];
  };
  assert.deepEqual(listed.data.map((document) => document.id).sort(), [...documentIds].sort(), 'exactly one document per item: none rendered twice');
  assert.ok(listed.data.every((document) => document.source === 'batch' && document.batch_id === id));
  const usage = (await (await call(server, 'GET', `/admin/v1/keys/${issued.id}`, ADMIN_TOKEN)).json()) as { usage: { used: number } };
  assert.equal(usage.usage.used, 30, 'one charge per document: none charged twice, none free');

  for (const [index, documentId] of documentIds.entries()) {
    const response = await call(server, 'GET', `/v1/documents/${documentId}`, issued.key);
    const bytes = Buffer.from(await response.arrayBuffer());
    assert.equal(response.status, 200);
    assert.equal(bytes.length, listed.data.find((document) => document.id === documentId)!.size, `item ${index} complete`);
    assert.match(bytes.subarray(-32).toString('latin1'), /%%EOF\s*$/);
  }
  const documentFiles = await readdir(path.join(dataDir, 'documents', issued.id));
  assert.equal(documentFiles.length, 60, 'a PDF and a sidecar per document, no leftovers');
  assert.deepEqual(await readdir(path.join(dataDir, 'batches', id)), ['state.json'], 'the requests are deleted once the batch completed');
  await server.crash();
});
