// `npm run cli -- import --from DATA_DIR`: copies an embedded store (the files under DATA_DIR)
// into the PostgreSQL of DATABASE_URL: keys (revoked ones too, so their documents keep an
// owner), monthly usage with open charge tags, templates, documents with their bytes, and the
// tombstones of expired documents. Every record is written only if absent (usage: the larger
// count wins), one document per transaction, so an interrupted import is simply run again and
// a finished one changes nothing the second time. Batches are not copied: they are work in
// flight; let the embedded server finish them before the move.

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DocumentsStore } from './documents.ts';
import type { StoredDocument } from './document-record.ts';
import type { KeyRecord } from './keys.ts';
import { TemplatesStore } from './templates.ts';
import type { Database } from './pg/database.ts';
import { PgDocumentStore } from './pg/documents.ts';
import { PgPdfBlobStore } from './pg/pdf-blobs.ts';

export interface ImportReport {
  keys: { copied: number; present: number };
  usageMonths: number;
  templates: { copied: number; present: number };
  documents: { copied: number; present: number };
  tombstones: { copied: number; present: number };
}

/** Copies what DATA_DIR holds into the database; `progress` hears a line per collection. */
export async function importFiles(dataDir: string, database: Database, progress: (line: string) => void = () => undefined): Promise<ImportReport> {
  const { pool } = database;
  const report: ImportReport = { keys: { copied: 0, present: 0 }, usageMonths: 0, templates: { copied: 0, present: 0 }, documents: { copied: 0, present: 0 }, tombstones: { copied: 0, present: 0 } };
  const count = (counter: { copied: number; present: number }, copied: boolean) => void (copied ? counter.copied++ : counter.present++);

  for (const key of await readKeys(dataDir)) {
    const { rowCount } = await pool.query(
      `INSERT INTO api_keys (id, name, plan_id, auto_store, key_hash, created_at, updated_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
      [key.id, key.name, key.planId, key.autoStore, key.keyHash, key.createdAt, key.updatedAt, key.revokedAt],
    );
    count(report.keys, rowCount === 1);
  }
  progress(`keys: ${report.keys.copied} copied, ${report.keys.present} already there`);

  for (const usage of await readUsage(dataDir)) {
    await pool.query(
      `INSERT INTO usage_months AS u (key_id, month, used, held, updated_at) VALUES ($1, $2, $3, 0, $4)
       ON CONFLICT (key_id, month) DO UPDATE SET used = GREATEST(u.used, EXCLUDED.used)`,
      [usage.accountId, usage.month, usage.used, usage.updatedAt],
    );
    for (const tag of usage.charges) await pool.query('INSERT INTO usage_charges (key_id, month, tag) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [usage.accountId, usage.month, tag]);
    report.usageMonths++;
  }
  progress(`usage: ${report.usageMonths} key-months`);

  const templates = await TemplatesStore.open(dataDir);
  for await (const meta of everyPage((cursor) => templates.page(undefined, 100, cursor))) {
    const record = await templates.read(meta.id);
    if (!record) continue;
    const { rowCount } = await pool.query(
      'INSERT INTO templates (id, key_id, name, html, sample_data, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING',
      [record.id, record.keyId, record.name, record.html, record.sampleData === null ? null : JSON.stringify(record.sampleData), record.createdAt, record.updatedAt],
    );
    count(report.templates, rowCount === 1);
  }
  progress(`templates: ${report.templates.copied} copied, ${report.templates.present} already there`);

  const { store: files } = await DocumentsStore.open(dataDir);
  const documents = new PgDocumentStore(pool, new PgPdfBlobStore(pool));
  for await (const document of everyPage((cursor) => files.page(undefined, 100, cursor, Number.NEGATIVE_INFINITY))) {
    if (await isPresent(database, document.id)) {
      report.documents.present++;
      continue;
    }
    const reader = await files.openPdf(document);
    if (!reader) continue;
    let pdf: Buffer;
    try {
      pdf = await readAll(reader.createReadStream());
    } finally {
      await reader.close();
    }
    await database.transaction((client) => documents.insert(client, toRecord(document), pdf));
    report.documents.copied++;
  }
  progress(`documents: ${report.documents.copied} copied, ${report.documents.present} already there`);

  const { tombstones } = await files.due(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
  for (const tombstone of tombstones) {
    if (await isPresent(database, tombstone.id)) {
      report.tombstones.present++;
      continue;
    }
    await database.transaction((client) => documents.insertTombstone(client, toRecord(tombstone)));
    report.tombstones.copied++;
  }
  progress(`expired documents (410 tombstones): ${report.tombstones.copied} copied, ${report.tombstones.present} already there`);
  return report;
}

async function readKeys(dataDir: string): Promise<KeyRecord[]> {
  try {
    return (JSON.parse(await readFile(path.join(dataDir, 'keys.json'), 'utf8')) as { keys: KeyRecord[] }).keys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new Error(`${path.join(dataDir, 'keys.json')} cannot be read: ${(error as Error).message}`);
  }
}

async function readUsage(dataDir: string): Promise<{ accountId: string; month: string; used: number; updatedAt: string | null; charges: string[] }[]> {
  const root = path.join(dataDir, 'usage');
  const found = [];
  for (const accountId of await readdir(root).catch(() => [] as string[])) {
    for (const name of await readdir(path.join(root, accountId)).catch(() => [] as string[])) {
      const match = /^(\d{4}-\d{2})\.json$/.exec(name);
      if (!match) continue;
      const file = path.join(root, accountId, name);
      const record = JSON.parse(await readFile(file, 'utf8')) as { used: number; updated_at: string | null; charges?: string[] };
      if (!Number.isInteger(record.used)) throw new Error(`${file} does not hold a usage count`);
      found.push({ accountId, month: match[1]!, used: record.used, updatedAt: record.updated_at, charges: record.charges ?? [] });
    }
  }
  return found;
}

async function* everyPage<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const current = await page(cursor);
    yield* current.items;
    cursor = current.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

async function isPresent(database: Database, documentId: string): Promise<boolean> {
  return ((await database.pool.query('SELECT 1 FROM documents WHERE id = $1', [documentId])).rowCount ?? 0) > 0;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function toRecord(document: StoredDocument) {
  const { createdMs: _created, expiresMs: _expires, ...record } = document;
  return record;
}
