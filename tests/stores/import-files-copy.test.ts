// `npm run cli -- import --from DATA_DIR` (stores/import-files.ts): an embedded store's keys,
// usage, templates, documents (bytes included) and tombstones arrive in PostgreSQL; running the
// import again changes nothing; without DATABASE_URL or --from it says what is missing.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { UsageMeter } from '../../server/src/accounts/usage.ts';
import { DocumentsStore } from '../../server/src/stores/documents.ts';
import { KeysStore } from '../../server/src/stores/keys.ts';
import { TemplatesStore } from '../../server/src/stores/templates.ts';
import { UsageStore } from '../../server/src/stores/usage.ts';
import { openDatabase } from '../../server/src/stores/pg/database.ts';
import { PgDocumentStore } from '../../server/src/stores/pg/documents.ts';
import { PgKeyStore } from '../../server/src/stores/pg/keys.ts';
import { PgPdfBlobStore } from '../../server/src/stores/pg/pdf-blobs.ts';
import { PgTemplateStore } from '../../server/src/stores/pg/templates.ts';
import { PgUsageLedger } from '../../server/src/stores/pg/usage-ledger.ts';
import { startTestDatabase } from '../helpers/postgres.ts';
import { REPO_ROOT } from '../helpers/server-process.ts';
import { readOpened } from '../helpers/pdf.ts';
import { run, NOW, importCli, documentRecord } from '../helpers/import-files.ts';

const database = await startTestDatabase({ after });

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
