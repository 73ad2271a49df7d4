// `npm run cli -- import --from DATA_DIR` (stores/import-files.ts): an embedded store's keys,
// usage, templates (versions and assets too), documents (bytes included), tombstones and batches
// arrive in PostgreSQL; a server on DATABASE_URL serves them as the embedded one did and finishes
// the unfinished batch, charging each item once; running the import again changes nothing.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { UsageMeter } from '../../server/src/accounts/usage.ts';
import { DEFAULT_PDF_OPTIONS } from '../../server/src/render/pdf-options.ts';
import { FileBatchStore } from '../../server/src/stores/batches.ts';
import type { BatchRecord } from '../../server/src/stores/batch-store.ts';
import { DocumentsStore } from '../../server/src/stores/documents.ts';
import type { DocumentRecord } from '../../server/src/stores/document-record.ts';
import { KeysStore } from '../../server/src/stores/keys.ts';
import { TemplatesStore } from '../../server/src/stores/templates.ts';
import { UsageStore } from '../../server/src/stores/usage.ts';
import { openDatabase, type Database } from '../../server/src/stores/pg/database.ts';
import { PgDocumentStore } from '../../server/src/stores/pg/documents.ts';
import { PgKeyStore } from '../../server/src/stores/pg/keys.ts';
import { PgPdfBlobStore } from '../../server/src/stores/pg/pdf-blobs.ts';
import { PgTemplateStore } from '../../server/src/stores/pg/templates.ts';
import { PgTemplateAssetsStore } from '../../server/src/stores/pg/template-assets.ts';
import { PgTemplateVersionsStore } from '../../server/src/stores/pg/template-versions.ts';
import { PgBatchStore } from '../../server/src/stores/pg/batches.ts';
import { FileTemplateAssetsStore } from '../../server/src/stores/template-assets.ts';
import { FileTemplateVersionsStore } from '../../server/src/stores/template-versions.ts';
import { importFiles } from '../../server/src/stores/import-files.ts';
import { PgUsageLedger } from '../../server/src/stores/pg/usage-ledger.ts';
import { startTestDatabase } from '../helpers/postgres.ts';
import { REPO_ROOT } from '../helpers/server-process.ts';
import { inspectPdf, readOpened } from '../helpers/pdf.ts';
import { bearer, startTestServer } from '../helpers/start-app.ts';
import { postBatch, waitForAdminBatch, waitForBatch, type BatchJson } from '../helpers/batches.ts';
import { startRecordingServer } from '../helpers/canary.ts';

const run = promisify(execFile);
const database = await startTestDatabase({ after });
const NOW = new Date('2026-03-10T12:00:00.000Z');

function importCli(dataDir: string, databaseUrl: string) {
  return run('npm', ['run', '-s', 'cli', '--', 'import', '--from', dataDir], { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: databaseUrl } });
}

function documentRecord(id: string, keyId: string, state: DocumentRecord['state'] = 'stored'): DocumentRecord {
  return {
    id,
    keyId,
    filename: `${id}.pdf`,
    size: 0,
    createdAt: NOW.toISOString(),
    expiresAt: '2026-04-10T12:00:00.000Z',
    source: 'render',
    batchId: null,
    planId: 'starter',
    retention: '30d',
    state,
    expiredAt: null,
  };
}

test('import copies an embedded store into PostgreSQL, and a second run changes nothing', { timeout: 120_000 }, async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-import-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const keys = await KeysStore.open(dataDir);
  const at = NOW.toISOString();
  await keys.insert(
    { id: 'key_live', name: 'live', planId: 'starter', autoStore: true, keyHash: 'hash_live', createdAt: at, updatedAt: at, revokedAt: null },
    { id: 'key_gone', name: 'gone', planId: 'growth', autoStore: false, keyHash: null, createdAt: at, updatedAt: at, revokedAt: at },
  );
  const usage = new UsageStore(dataDir);
  const meter = new UsageMeter(
    (accountId, month) => usage.open(accountId, month),
    () => NOW,
  );
  // Open tags as a crash leaves them: a batch's that is gone, and two stored renders' (doc_kept was stored, doc_lost never was).
  for (const tag of ['bat_gone:0', 'doc:doc_kept', 'doc:doc_lost', undefined])
    await (await meter.reserve('key_live', { id: 'starter', monthlyDocuments: 1000 })).commit(tag);
  const templates = await TemplatesStore.open(dataDir);
  await templates.insert({
    id: 'tpl_one',
    keyId: 'key_live',
    name: 'one',
    html: '# {{x}}',
    format: 'markdown',
    sampleData: { x: 1 },
    createdAt: at,
    updatedAt: at,
  });
  const { store: documents } = await DocumentsStore.open(dataDir);
  const pdf = randomBytes(300 * 1024);
  await documents.put({ ...documentRecord('doc_kept', 'key_live'), size: pdf.length }, pdf);
  await documents.put(documentRecord('doc_expired', 'key_gone'), Buffer.from('%PDF-1.7'));
  await documents.expire('doc_expired', NOW);

  const first = await importCli(dataDir, database.url);
  assert.match(first.stderr, /keys: 2 copied/);
  assert.match(first.stderr, /documents: 1 copied/);

  const db = await openDatabase(database.url);
  t.after(() => db.close());
  const pgKeys = new PgKeyStore(db.pool);
  assert.deepEqual(await pgKeys.get('key_live'), await keys.get('key_live'));
  assert.deepEqual(await pgKeys.get('key_gone'), await keys.get('key_gone'));
  const ledger = new PgUsageLedger(db.pool, () => NOW);
  assert.equal((await ledger.usage('key_live', { id: 'starter', monthlyDocuments: 1000 })).used, 3, 'the charge of doc_lost given back');
  assert.deepEqual((await db.pool.query('SELECT tag FROM usage_charges')).rows, [], 'doc: tags settled by the import (PostgreSQL has no use for them)');
  assert.equal(await ledger.wasCharged('key_live', 'bat_gone:0', '2026-03'), false, 'the tag of a batch no longer on file is settled, not carried over');
  assert.deepEqual(await new PgTemplateStore(db.pool).read('tpl_one'), await templates.read('tpl_one'));
  const pgDocuments = new PgDocumentStore(db.pool, new PgPdfBlobStore(db.pool));
  const kept = (await pgDocuments.get('doc_kept'))!;
  assert.deepEqual(kept, await documents.get('doc_kept'));
  assert.deepEqual(await readOpened((await pgDocuments.openPdf(kept))!), pdf);
  assert.equal((await pgDocuments.tombstone('doc_expired'))?.keyId, 'key_gone');

  const second = await importCli(dataDir, database.url);
  assert.match(second.stderr, /keys: 0 copied, 2 already there/);
  assert.match(second.stderr, /templates: 0 copied, 1 already there/);
  assert.match(second.stderr, /documents: 0 copied, 1 already there/);
  assert.match(second.stderr, /tombstones\): 0 copied, 1 already there/);
  assert.equal((await ledger.usage('key_live', { id: 'starter', monthlyDocuments: 1000 })).used, 3);
  assert.equal((await db.pool.query('SELECT count(*)::int AS n FROM document_blobs')).rows[0].n, 2);
});

test('import without DATABASE_URL or --from says what is missing', async () => {
  const failed = await run('npm', ['run', '-s', 'cli', '--', 'import'], { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: database.url } }).catch(
    (error: { stderr: string; code: number }) => error,
  );
  assert.equal((failed as { code: number }).code, 1);
  assert.match((failed as { stderr: string }).stderr, /import needs --from DATA_DIR/);
});

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
const LOAD = { wait_until: 'load' };

/** Every row of the tables the import writes, as one digest per table (leases included: a changed row shows). */
async function snapshot(db: Database): Promise<Record<string, string>> {
  const tables = ['api_keys', 'usage_months', 'usage_charges', 'templates', 'template_versions', 'template_assets', 'documents', 'document_blobs', 'batches'];
  const rows = await Promise.all(
    tables.map(
      async (table) =>
        (await db.pool.query(`SELECT coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS digest, count(*)::int AS n FROM ${table} t`)).rows[0],
    ),
  );
  return Object.fromEntries(tables.map((table, at) => [table, `${rows[at].n} ${rows[at].digest}`]));
}

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

/** The database as an import interrupted before its `at`-th statement or transaction sees it (a kill between two writes). */
function interruptedAt(db: Database, at: number): Database {
  let statements = 0;
  const tick = () => {
    if (++statements === at) throw new Error('interrupted');
  };
  const pool = new Proxy(db.pool, {
    get(target, property) {
      if (property === 'query') {
        return (...args: Parameters<typeof target.query>) => {
          tick();
          return target.query(...args);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    ...db,
    pool,
    transaction: (work) => {
      tick();
      return db.transaction(work);
    },
  };
}

test('an import interrupted before any of its writes, run again, leaves versions, assets and batches whole', { timeout: 120_000 }, async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-import-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const at = NOW.toISOString();
  await (await KeysStore.open(dataDir)).insert({
    id: 'key_resume',
    name: 'resume',
    planId: 'starter',
    autoStore: false,
    keyHash: 'hash_resume',
    createdAt: at,
    updatedAt: at,
    revokedAt: null,
  });
  await (await TemplatesStore.open(dataDir)).insert({
    id: 'tpl_resume',
    keyId: 'key_resume',
    name: 'r',
    html: '<p>2</p>',
    format: 'html',
    sampleData: null,
    createdAt: at,
    updatedAt: at,
  });
  const versions = await FileTemplateVersionsStore.open(dataDir);
  const references = [randomBytes(2048), randomBytes(4096)];
  for (const [index, reference] of references.entries()) {
    await versions.append({
      templateId: 'tpl_resume',
      name: 'r',
      html: `<p>${index + 1}</p>`,
      format: 'html',
      sampleData: { n: index },
      createdAt: at,
      createdBy: 'key_resume',
    });
    await versions.saveReference('tpl_resume', index + 1, reference);
  }
  const assets = await FileTemplateAssetsStore.open(dataDir);
  const assetBytes = { 'a.png': PNG, 'fonts/b.woff2': randomBytes(64 * 1024) };
  for (const [name, bytes] of Object.entries(assetBytes))
    await assets.put('tpl_resume', { meta: { name, contentType: 'application/octet-stream', size: bytes.length, updatedAt: at }, bytes });
  const { store: documents } = await DocumentsStore.open(dataDir);
  await documents.put({ ...documentRecord('doc_resume0', 'key_resume'), source: 'batch', batchId: 'bat_resume', size: 8 }, Buffer.from('%PDF-1.7'));
  const usage = new UsageStore(dataDir);
  await (
    await new UsageMeter(
      (accountId, month) => usage.open(accountId, month),
      () => NOW,
    ).reserve('key_resume', { id: 'starter', monthlyDocuments: 1000 })
  ).commit('bat_resume:0');
  const { store: batches } = await FileBatchStore.open(dataDir);
  const item = (index: number, status: 'rendering' | 'queued') => ({
    index,
    status,
    documentId: `doc_resume${index}`,
    filename: null,
    error: null,
    startedAt: status === 'queued' ? null : at,
    finishedAt: null,
  });
  const batch: BatchRecord = {
    id: 'bat_resume',
    keyId: 'key_resume',
    mode: 'async',
    status: 'processing',
    createdAt: at,
    completedAt: null,
    expiresAt: '2099-01-01T00:00:00.000Z',
    webhook: null,
    items: [item(0, 'rendering'), item(1, 'queued')],
  };
  const requests = [0, 1].map((index) => ({ html: `<p>${index}</p>`, options: DEFAULT_PDF_OPTIONS }));
  await batches.create(batch, requests);

  const target = await startTestDatabase(t);
  const db = await openDatabase(target.url);
  t.after(() => db.close());
  // Run k stops before its k-th write, so every point between two writes is met once; the run that meets none finishes.
  let runs = 0;
  for (;;) {
    runs++;
    try {
      await importFiles(dataDir, interruptedAt(db, runs));
      break;
    } catch (error) {
      if ((error as Error).message !== 'interrupted') throw error;
    }
  }
  assert.ok(runs > 10, `the import was cut at ${runs - 1} points`);
  const last = await importFiles(dataDir, db);
  for (const [collection, tally] of Object.entries(last)) assert.equal(tally.copied, 0, `${collection}: nothing left to copy`);

  const pgVersions = new PgTemplateVersionsStore(db.pool);
  for (const number of [1, 2]) {
    assert.deepEqual(await pgVersions.read('tpl_resume', number), await versions.read('tpl_resume', number));
    assert.deepEqual(Buffer.from((await pgVersions.readReference('tpl_resume', number))!), references[number - 1]);
  }
  const pgAssets = new PgTemplateAssetsStore(db.pool);
  assert.deepEqual(await pgAssets.list('tpl_resume'), await assets.list('tpl_resume'));
  for (const [name, bytes] of Object.entries(assetBytes)) assert.deepEqual(Buffer.from((await pgAssets.read('tpl_resume', name))!.bytes), bytes);
  const pgBatches = new PgBatchStore(db.pool);
  assert.deepEqual(await pgBatches.get('bat_resume'), batch);
  assert.deepEqual(await pgBatches.requests('bat_resume'), requests);
  assert.deepEqual(
    (await db.pool.query("SELECT lease_owner FROM batches WHERE id = 'bat_resume'")).rows,
    [{ lease_owner: null }],
    'free for the first instance to adopt',
  );
  assert.equal(
    await new PgUsageLedger(db.pool, () => NOW).wasCharged('key_resume', 'bat_resume:0', '2026-03'),
    true,
    'the rendering item’s charge is known, so it is not charged again',
  );
});
