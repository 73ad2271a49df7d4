// After `npm run cli -- import --from DATA_DIR` a server on DATABASE_URL serves template versions,
// assets and batches as the embedded one did, and finishes the unfinished batch, charging each item once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UsageMeter } from '../../server/src/accounts/usage.ts';
import { DEFAULT_PDF_OPTIONS } from '../../server/src/render/pdf-options.ts';
import { FileBatchStore } from '../../server/src/stores/batches.ts';
import type { BatchRecord } from '../../server/src/stores/batch-store.ts';
import { DocumentsStore } from '../../server/src/stores/documents.ts';
import { UsageStore } from '../../server/src/stores/usage.ts';
import { openDatabase } from '../../server/src/stores/pg/database.ts';
import { startTestDatabase } from '../helpers/postgres.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { bearer, startTestServer } from '../helpers/start-app.ts';
import { postBatch, waitForAdminBatch, waitForBatch, type BatchJson } from '../helpers/batches.ts';
import { startRecordingServer } from '../helpers/canary.ts';
import { importCli, PNG, LOAD, snapshot } from '../helpers/import-files.ts';

test('after the import a server on DATABASE_URL lists template versions, serves assets and batches as before, and finishes an unfinished batch charging each item once', {
  timeout: 300_000,
}, async (t) => {
  const target = await startTestDatabase(t);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-import-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const receiver = await startRecordingServer('127.0.0.1', 0, { '/hook': (req, res) => void req.resume().on('end', () => res.writeHead(200).end('ok')) });
  t.after(() => receiver.close());

  // The embedded server (files, real Chromium): a template saved twice with two assets, and a completed in-call batch with a delivered webhook.
  const embedded = await startTestServer(t, { dataDir, allowHosts: [`127.0.0.1:${receiver.port}`] });
  const created = await embedded.request('POST', '/v1/templates', {
    name: 'invoice',
    html: '<link rel="stylesheet" href="style.css"><img src="img/logo.png"><h1>{{who}}</h1>',
    sample_data: { who: 'Ada' },
  });
  assert.equal(created.status, 201);
  const templateId = ((await created.json()) as { template_id: string }).template_id;
  assert.equal(
    (
      await embedded.request('PUT', `/v1/templates/${templateId}`, {
        name: 'invoice',
        html: '<link rel="stylesheet" href="style.css"><img src="img/logo.png"><h1>Dear {{who}}</h1>',
        sample_data: { who: 'Grace' },
      })
    ).status,
    200,
  );
  for (const [name, type, bytes] of [
    ['img/logo.png', 'image/png', PNG],
    ['style.css', 'text/css', Buffer.from('h1 { color: #123456 }')],
  ] as const) {
    const put = await fetch(`${embedded.url}/v1/templates/${templateId}/assets/${name}`, {
      method: 'PUT',
      headers: { ...bearer(embedded.key), 'content-type': type },
      body: bytes,
    });
    assert.ok(put.ok, await put.text());
  }
  const references = [];
  for (const version of [1, 2]) {
    const reference = await embedded.admin('GET', `/admin/v1/templates/${templateId}/versions/${version}/reference`);
    assert.equal(reference.status, 200);
    references.push(Buffer.from(await reference.arrayBuffer()));
  }
  const versionsBefore = await (await embedded.request('GET', `/v1/templates/${templateId}/versions`)).json();
  const completed = await postBatch(embedded, {
    requests: [{ template_id: templateId, data: { who: 'Lin' } }, { html: '<h1>second</h1>' }, { url: 'http://127.0.0.1:9/' }],
    options: LOAD,
    webhook_url: `${receiver.url}/hook`,
    webhook_secret: 'sixteen-chars-at-least',
  });
  assert.equal(completed.status, 200);
  const completedId = ((await completed.json()) as BatchJson).batch_id;
  const adminBefore = await waitForAdminBatch(embedded, completedId, (batch) => batch.webhook_status === 'delivered');
  assert.equal(adminBefore.deliveries.length, 1);
  const batchBefore = await (await embedded.request('GET', `/v1/pdf/batch/${completedId}`)).json();
  const listedBefore = ((await (await embedded.admin('GET', `/admin/v1/batches?key_id=${embedded.key.id}`)).json()) as { data: unknown[] }).data;
  const itemPdf = Buffer.from(await (await embedded.request('GET', `/v1/documents/${adminBefore.results[1]!.document_id}`)).arrayBuffer());
  const usedBefore = ((await (await embedded.admin('GET', `/admin/v1/keys/${embedded.key.id}`)).json()) as { usage: { used: number } }).usage.used;
  await embedded.app.close();

  // An unfinished background batch as a stop leaves it: item 0 done, item 1 stopped after its
  // document and charge were written, item 2 stopped before its document, item 3 not started.
  const now = new Date();
  const unfinished: BatchRecord = {
    id: 'bat_unfinished0001',
    keyId: embedded.key.id,
    mode: 'async',
    status: 'processing',
    createdAt: now.toISOString(),
    completedAt: null,
    expiresAt: new Date(now.getTime() + 86_400_000).toISOString(),
    webhook: null,
    items: (['succeeded', 'rendering', 'rendering', 'queued'] as const).map((status, index) => ({
      index,
      status,
      documentId: `doc_unfinished${index}`,
      filename: `item-${index}.pdf`,
      error: null,
      startedAt: status === 'queued' ? null : now.toISOString(),
      finishedAt: status === 'succeeded' ? now.toISOString() : null,
    })),
  };
  const { store: batchFiles } = await FileBatchStore.open(dataDir);
  await batchFiles.create(
    unfinished,
    [0, 1, 2, 3].map((index) => ({
      html: `<h1>unfinished ${index}</h1>`,
      options: { ...DEFAULT_PDF_OPTIONS, wait_until: 'load' as const },
      filename: `item-${index}.pdf`,
    })),
  );
  const { store: documentFiles } = await DocumentsStore.open(dataDir);
  const usage = new UsageStore(dataDir);
  const meter = new UsageMeter((accountId, month) => usage.open(accountId, month));
  for (const index of [0, 1]) {
    await documentFiles.put(
      {
        id: `doc_unfinished${index}`,
        keyId: embedded.key.id,
        filename: `item-${index}.pdf`,
        size: itemPdf.length,
        createdAt: now.toISOString(),
        expiresAt: unfinished.expiresAt,
        source: 'batch',
        batchId: unfinished.id,
        planId: 'business',
        retention: '2y',
        state: 'stored',
        expiredAt: null,
      },
      itemPdf,
    );
    await (await meter.reserve(embedded.key.id, { id: 'business', monthlyDocuments: 250_000 })).commit(index === 1 ? `${unfinished.id}:1` : undefined);
  }

  const first = await importCli(dataDir, target.url);
  assert.match(first.stderr, /template versions: 2 copied, 0 already there/);
  assert.match(first.stderr, /template assets: 2 copied, 0 already there/);
  assert.match(first.stderr, /batches: 2 copied \(1 unfinished, [^)]*\), 0 already there/);

  const moved = await startTestServer(t, { databaseUrl: target.url });
  const key = bearer(embedded.key);
  assert.deepEqual(await (await moved.request('GET', `/v1/templates/${templateId}/versions`, undefined, key)).json(), versionsBefore);
  for (const version of [1, 2]) {
    assert.deepEqual(
      Buffer.from(await (await moved.admin('GET', `/admin/v1/templates/${templateId}/versions/${version}/reference`)).arrayBuffer()),
      references[version - 1],
    );
  }
  const logo = await moved.request('GET', `/v1/templates/${templateId}/assets/img/logo.png`, undefined, key);
  assert.equal(logo.headers.get('content-type'), 'image/png');
  assert.deepEqual(Buffer.from(await logo.arrayBuffer()), PNG);
  assert.deepEqual(await (await moved.request('GET', `/v1/pdf/batch/${completedId}`, undefined, key)).json(), batchBefore);
  assert.deepEqual(await (await moved.admin('GET', `/admin/v1/batches/${completedId}`)).json(), adminBefore);
  const listed = ((await (await moved.admin('GET', `/admin/v1/batches?key_id=${embedded.key.id}`)).json()) as { data: { batch_id: string }[] }).data;
  assert.deepEqual(
    listed.find((batch) => batch.batch_id === completedId),
    listedBefore.find((batch) => (batch as { batch_id: string }).batch_id === completedId),
  );

  const finished = await waitForBatch(moved, unfinished.id, embedded.key);
  assert.deepEqual(
    finished.results.map((item) => item.status),
    ['succeeded', 'succeeded', 'succeeded', 'succeeded'],
  );
  const rendered = await moved.request('GET', '/v1/documents/doc_unfinished3', undefined, key);
  assert.equal(rendered.status, 200);
  assert.match((await inspectPdf(await rendered.arrayBuffer())).text, /unfinished 3/);
  const usedAfter = ((await (await moved.admin('GET', `/admin/v1/keys/${embedded.key.id}`)).json()) as { usage: { used: number } }).usage.used;
  assert.equal(usedAfter, usedBefore + 4, 'items 0 and 1 charged on the files, items 2 and 3 once each in PostgreSQL');
  await moved.app.close();
  const db = await openDatabase(target.url);
  t.after(() => db.close());
  assert.deepEqual(
    (await db.pool.query('SELECT tag FROM usage_charges')).rows,
    [],
    'no tag of the completed batch copied; the unfinished one’s settled as it completed',
  );

  const before = await snapshot(db);
  const second = await importCli(dataDir, target.url);
  assert.match(second.stderr, /template versions: 0 copied, 2 already there/);
  assert.match(second.stderr, /template assets: 0 copied, 2 already there/);
  assert.match(second.stderr, /batches: 0 copied \(0 unfinished, [^)]*\), 2 already there/);
  assert.match(second.stderr, /usage \(key-months\): 0 copied, \d+ already there/);
  assert.deepEqual(await snapshot(db), before);
});
