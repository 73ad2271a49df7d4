// `npm run cli -- import --from DATA_DIR`: copies an embedded store (the files under DATA_DIR)
// into the PostgreSQL of DATABASE_URL: keys (revoked ones too, so their documents keep an
// owner), monthly usage with its open charge tags, templates with their versions (and reference
// PDFs) and assets (and bytes), documents with their bytes, the tombstones of expired documents,
// and batches: completed ones (GET and the admin list keep answering), unfinished ones with their
// requests and no lease, so the first PostgreSQL instance to look adopts and finishes them. Every
// record is one statement or transaction written only if absent (usage: the larger count wins),
// so an interrupted import is simply run again and a finished one changes nothing the second time.

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileBatchStore } from './batches.ts';
import type { BatchRecord } from './batch-store.ts';
import { DocumentsStore } from './documents.ts';
import type { StoredDocument } from './document-record.ts';
import type { KeyRecord } from './keys.ts';
import { documentChargeResolver } from './render-commit.ts';
import { FileTemplateAssetsStore } from './template-assets.ts';
import { FileTemplateVersionsStore } from './template-versions.ts';
import { TemplatesStore } from './templates.ts';
import type { Database } from './pg/database.ts';
import { PgDocumentStore } from './pg/documents.ts';
import { PgPdfBlobStore } from './pg/pdf-blobs.ts';

interface Counter {
  copied: number;
  present: number;
}

export interface ImportReport {
  keys: Counter;
  /** Key-months: copied when the database had none or a smaller count. */
  usage: Counter;
  templates: Counter;
  versions: Counter;
  assets: Counter;
  documents: Counter;
  tombstones: Counter;
  /** unfinished: of those copied, how many a PostgreSQL instance will adopt and finish. */
  batches: Counter & { unfinished: number };
}

/** The embedded store being copied (opened as a server start would, repairs included: the import holds its lock). */
interface Source {
  dataDir: string;
  documents: DocumentsStore;
  batches: FileBatchStore;
}

/** Copies what DATA_DIR holds into the database; `progress` hears a line per collection. */
export async function importFiles(dataDir: string, database: Database, progress: (line: string) => void = () => undefined): Promise<ImportReport> {
  const source: Source = { dataDir, documents: (await DocumentsStore.open(dataDir)).store, batches: (await FileBatchStore.open(dataDir)).store };
  const told = (what: string, tally: Counter, more = '') => progress(`${what}: ${tally.copied} copied${more}, ${tally.present} already there`);
  const keys = await copyKeys(source, database);
  told('keys', keys);
  const usage = await copyUsage(source, database);
  told('usage (key-months)', usage);
  const { templates, versions, assets } = await copyTemplates(source, database);
  told('templates', templates);
  told('template versions', versions);
  told('template assets', assets);
  const { documents, tombstones } = await copyDocuments(source, database);
  told('documents', documents);
  told('expired documents (410 tombstones)', tombstones);
  // After documents and usage: an item the embedded server left rendering is settled by the
  // adopting instance from its document and charge tag, which must be there first.
  const batches = await copyBatches(source, database);
  told('batches', batches, ` (${batches.unfinished} unfinished, to be finished by the first instance on DATABASE_URL)`);
  return { keys, usage, templates, versions, assets, documents, tombstones, batches };
}

function counter(): Counter {
  return { copied: 0, present: 0 };
}

function count(tally: Counter, copied: boolean): void {
  if (copied) tally.copied++;
  else tally.present++;
}

async function copyKeys({ dataDir }: Source, { pool }: Database): Promise<Counter> {
  const keys = counter();
  for (const key of await readKeys(dataDir)) {
    const { rowCount } = await pool.query(
      `INSERT INTO api_keys (id, name, plan_id, auto_store, key_hash, created_at, updated_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
      [key.id, key.name, key.planId, key.autoStore, key.keyHash, key.createdAt, key.updatedAt, key.revokedAt],
    );
    count(keys, rowCount === 1);
  }
  return keys;
}

async function copyUsage({ dataDir, documents, batches }: Source, { pool }: Database): Promise<Counter> {
  const months = counter();
  // A "doc:<id>" tag is a stored render's charge that a crash may have cut off from its document.
  // PostgreSQL has no such tags (one transaction), so it is settled here as the files would at
  // their next start: kept when the document exists, given back when it does not.
  const settleDocumentCharge = documentChargeResolver(documents);
  for (const usage of await readUsage(dataDir)) {
    let used = usage.used;
    const charges: string[] = [];
    for (const tag of usage.charges) {
      const outcome = await settleDocumentCharge(tag);
      if (outcome === 'refund') used--;
      else if (outcome === undefined && !(await isSettledBatchTag(batches, tag))) charges.push(tag);
    }
    const { rowCount } = await pool.query(
      `INSERT INTO usage_months AS u (key_id, month, used, held, updated_at) VALUES ($1, $2, $3, 0, $4)
       ON CONFLICT (key_id, month) DO UPDATE SET used = EXCLUDED.used WHERE u.used < EXCLUDED.used`,
      [usage.accountId, usage.month, Math.max(0, used), usage.updatedAt],
    );
    count(months, rowCount === 1);
    // An unfinished batch's item tag tells the adopting instance that the item's document is
    // charged already (services/batches/items.ts recover). Once that batch completed in PostgreSQL
    // (an earlier run moved it) its tags were settled there: copying them again would leave stale ones.
    for (const tag of charges) {
      await pool.query(
        `INSERT INTO usage_charges (key_id, month, tag) SELECT $1, $2, $3
         WHERE NOT EXISTS (SELECT 1 FROM batches WHERE id = split_part($3, ':', 1) AND status = 'completed') ON CONFLICT DO NOTHING`,
        [usage.accountId, usage.month, tag],
      );
    }
  }
  return months;
}

async function copyTemplates({ dataDir }: Source, { pool }: Database): Promise<{ templates: Counter; versions: Counter; assets: Counter }> {
  const copied = { templates: counter(), versions: counter(), assets: counter() };
  const templates = await TemplatesStore.open(dataDir);
  const versions = await FileTemplateVersionsStore.open(dataDir);
  const assets = await FileTemplateAssetsStore.open(dataDir);
  for await (const meta of everyPage((cursor) => templates.page(undefined, 100, cursor))) {
    const record = await templates.read(meta.id);
    if (!record) continue;
    const { rowCount } = await pool.query(
      'INSERT INTO templates (id, key_id, name, html, format, sample_data, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING',
      [record.id, record.keyId, record.name, record.html, record.format, jsonOrNull(record.sampleData), record.createdAt, record.updatedAt],
    );
    count(copied.templates, rowCount === 1);
    // Versions and assets of a template already there too: an interrupted run may have stopped between them.
    // Each is one row with its bytes (reference PDF, asset), so none is ever half there.
    for await (const { number } of everyPage((cursor) => versions.page(record.id, 100, cursor))) {
      const version = await versions.read(record.id, number);
      if (!version) continue;
      const reference = await versions.readReference(record.id, number);
      const { rowCount: inserted } = await pool.query(
        `INSERT INTO template_versions (template_id, number, name, html, format, sample_data, created_at, created_by, reference) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (template_id, number) DO NOTHING`,
        [
          record.id,
          number,
          version.name,
          version.html,
          version.format,
          jsonOrNull(version.sampleData),
          version.createdAt,
          version.createdBy,
          reference ? Buffer.from(reference) : null,
        ],
      );
      count(copied.versions, inserted === 1);
    }
    for (const { name } of await assets.list(record.id)) {
      const asset = await assets.read(record.id, name);
      if (!asset) continue;
      const { rowCount: inserted } = await pool.query(
        'INSERT INTO template_assets (template_id, name, content_type, size, updated_at, bytes) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (template_id, name) DO NOTHING',
        [record.id, name, asset.meta.contentType, asset.meta.size, asset.meta.updatedAt, Buffer.from(asset.bytes)],
      );
      count(copied.assets, inserted === 1);
    }
  }
  return copied;
}

async function copyDocuments({ documents: files }: Source, database: Database): Promise<{ documents: Counter; tombstones: Counter }> {
  const copied = { documents: counter(), tombstones: counter() };
  const documents = new PgDocumentStore(database.pool, new PgPdfBlobStore(database.pool));
  for await (const document of everyPage((cursor) => files.page(undefined, 100, cursor, Number.NEGATIVE_INFINITY))) {
    if (await isPresent(database, document.id)) {
      copied.documents.present++;
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
    copied.documents.copied++;
  }
  const { tombstones } = await files.due(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
  for (const tombstone of tombstones) {
    if (await isPresent(database, tombstone.id)) {
      copied.tombstones.present++;
      continue;
    }
    await database.transaction((client) => documents.insertTombstone(client, toRecord(tombstone)));
    copied.tombstones.copied++;
  }
  return copied;
}

async function copyBatches({ batches }: Source, { pool }: Database): Promise<Counter & { unfinished: number }> {
  const copied = { ...counter(), unfinished: 0 };
  for await (const batch of everyPage((cursor) => batches.page(undefined, 100, cursor))) {
    if (isPrunable(batch, Date.now())) continue;
    const unfinished = batch.status !== 'completed';
    // One row, requests included, so a batch is there whole or not at all; no lease, so the first instance to look adopts it.
    const { rowCount } = await pool.query(
      `INSERT INTO batches (id, key_id, created_at, expires_at, status, webhook_pending, record, requests, lease_owner, lease_expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, NULL) ON CONFLICT (id) DO NOTHING`,
      [
        batch.id,
        batch.keyId,
        batch.createdAt,
        batch.expiresAt,
        batch.status,
        batch.webhook?.status === 'pending',
        JSON.stringify(batch),
        unfinished ? JSON.stringify(await batches.requests(batch.id)) : null,
      ],
    );
    count(copied, rowCount === 1);
    if (rowCount === 1 && unfinished) copied.unfinished++;
  }
  return copied;
}

/** A batch item's tag ("<batch id>:<index>") whose batch completed on the files (or is gone): settled, nothing to carry over. */
async function isSettledBatchTag(batches: FileBatchStore, tag: string): Promise<boolean> {
  const match = /^(bat_[A-Za-z0-9]+):\d+$/.exec(tag);
  if (!match) return false;
  const batch = await batches.get(match[1]!);
  return !batch || batch.status === 'completed';
}

/** A batch the next prune would delete (stores/batches.ts): not copied, or every run would copy it again. */
function isPrunable(batch: BatchRecord, nowMs: number): boolean {
  return batch.status === 'completed' && batch.webhook?.status !== 'pending' && Date.parse(batch.expiresAt) <= nowMs;
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

function jsonOrNull(value: Record<string, unknown> | null): string | null {
  return value === null ? null : JSON.stringify(value);
}

function toRecord(document: StoredDocument) {
  const { createdMs: _created, expiresMs: _expires, ...record } = document;
  return record;
}
