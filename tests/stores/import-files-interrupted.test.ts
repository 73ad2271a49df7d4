// An import (stores/import-files.ts) interrupted before any of its writes, run again, leaves
// versions, assets and batches whole.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { UsageMeter } from '../../server/src/accounts/usage.ts';
import { DEFAULT_PDF_OPTIONS } from '../../server/src/render/pdf-options.ts';
import { FileBatchStore } from '../../server/src/stores/batches.ts';
import type { BatchRecord } from '../../server/src/stores/batch-store.ts';
import { DocumentsStore } from '../../server/src/stores/documents.ts';
import { KeysStore } from '../../server/src/stores/keys.ts';
import { TemplatesStore } from '../../server/src/stores/templates.ts';
import { UsageStore } from '../../server/src/stores/usage.ts';
import { openDatabase, type Database } from '../../server/src/stores/pg/database.ts';
import { PgTemplateAssetsStore } from '../../server/src/stores/pg/template-assets.ts';
import { PgTemplateVersionsStore } from '../../server/src/stores/pg/template-versions.ts';
import { PgBatchStore } from '../../server/src/stores/pg/batches.ts';
import { FileTemplateAssetsStore } from '../../server/src/stores/template-assets.ts';
import { FileTemplateVersionsStore } from '../../server/src/stores/template-versions.ts';
import { importFiles } from '../../server/src/stores/import-files.ts';
import { PgUsageLedger } from '../../server/src/stores/pg/usage-ledger.ts';
import { startTestDatabase } from '../helpers/postgres.ts';
import { NOW, documentRecord, PNG } from '../helpers/import-files.ts';

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
