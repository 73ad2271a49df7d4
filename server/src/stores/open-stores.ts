// Chooses where state lives, once, at start-up: the files under DATA_DIR (the embedded default)
// or PostgreSQL when DATABASE_URL is set (several instances share it). Everything above stores/
// sees only the interfaces returned here.
// Batches (with their items' states and webhook deliveries) are shared too: each instance works
// on the batches it holds a lease on (stores/pg/batches.ts).

import { UsageMeter, type UsageLedger } from '../accounts/usage.ts';
import { EventBus } from '../events.ts';
import { FileBatchStore } from './batches.ts';
import type { BatchStore } from './batch-store.ts';
import type { DocumentStore } from './document-store.ts';
import { DocumentsStore } from './documents.ts';
import { KeysStore, type KeyStore } from './keys.ts';
import { TemplatesStore, type TemplateStore } from './templates.ts';
import { FileTemplateAssetsStore, type TemplateAssetsStore } from './template-assets.ts';
import { FileTemplateVersionsStore, type TemplateVersionsStore } from './template-versions.ts';
import { UsageStore } from './usage.ts';
import { MemoryRateLimits, type RateLimitStore } from './rate-limits.ts';
import { openDatabase } from './pg/database.ts';
import { PgBatchStore } from './pg/batches.ts';
import { PgDocumentStore } from './pg/documents.ts';
import { PgEventBus } from './pg/event-bus.ts';
import { PgKeyStore } from './pg/keys.ts';
import { PgPdfBlobStore } from './pg/pdf-blobs.ts';
import { PgTemplateStore } from './pg/templates.ts';
import { PgTemplateAssetsStore } from './pg/template-assets.ts';
import { PgTemplateVersionsStore } from './pg/template-versions.ts';
import { PgUsageLedger } from './pg/usage-ledger.ts';
import { PgRateLimits } from './pg/rate-limits.ts';
import { pgRenderCommit } from './pg/render-commit.ts';
import { documentChargeResolver, fileRenderCommit, type RenderCommit } from './render-commit.ts';
import { FileReceiptStore, type ReceiptStore } from './receipts.ts';
import { PgReceiptStore } from './pg/receipts.ts';
import { FilePresetStore, type PresetStore } from './presets.ts';
import { PgPresetStore } from './pg/presets.ts';
import { FileCertificateStore, type CertificateStore } from './certificates.ts';
import { PgCertificateStore } from './pg/certificates.ts';

export interface Stores {
  readonly kind: 'files' | 'postgresql';
  readonly keys: KeyStore;
  readonly usage: UsageLedger;
  readonly templates: TemplateStore;
  readonly templateVersions: TemplateVersionsStore;
  readonly templateAssets: TemplateAssetsStore;
  readonly documents: DocumentStore;
  /** Batches, their items' states and webhook deliveries: the background queue. */
  readonly batches: BatchStore;
  /** A render's copy and charge, committed as one unit. */
  readonly renderCommit: RenderCommit;
  /** Render receipts (services/accounts/receipts.ts). */
  readonly receipts: ReceiptStore;
  /** Transform presets (services/pdf-tools/presets.ts). */
  readonly presets: PresetStore;
  /** The admin event bus: this process's own, or every instance's through PostgreSQL. */
  readonly events: EventBus;
  /** Sliding-window counts (the playground's limit): this process's memory, or shared by every instance. */
  readonly rateLimits: RateLimitStore;
  /** Signing certificates with their keys sealed (docs/api.md#signing). */
  readonly certificates: CertificateStore;
  /** Waits for writes in flight and closes connections (the files: records the documents index snapshot). */
  close(): Promise<void>;
}

export interface OpenStoresOptions {
  dataDir: string;
  /** PostgreSQL connection URL; empty for the files. */
  databaseUrl: string;
  now?: () => Date;
  warn?: (details: Record<string, unknown>, message: string) => void;
  /** Told about failures in the background (events that could not be sent). */
  error?: (details: Record<string, unknown>, message: string) => void;
  /** PostgreSQL: how long a batch lease lasts unrenewed (BATCH_LEASE_SECONDS). */
  batchLeaseSeconds?: number;
}

/** Only the signing certificates (the CLI's certificates commands), on the files or PostgreSQL. */
export async function openCertificateStore(
  options: Pick<OpenStoresOptions, 'dataDir' | 'databaseUrl'>,
): Promise<{ store: CertificateStore; close(): Promise<void> }> {
  if (!options.databaseUrl) return { store: await FileCertificateStore.open(options.dataDir), close: async () => undefined };
  const database = await openDatabase(options.databaseUrl);
  return { store: new PgCertificateStore(database.pool), close: () => database.close() };
}

/** Opens the stores the settings ask for; PostgreSQL's schema is migrated first. */
export async function openStores(options: OpenStoresOptions): Promise<Stores> {
  return options.databaseUrl ? openPgStores(options) : openFileStores(options);
}

/**
 * Only the keys and usage (the CLI's key commands): the files' documents and templates are not
 * opened (no index scan), PostgreSQL's schema is migrated as for the server.
 */
export async function openAccountStores(options: OpenStoresOptions): Promise<Pick<Stores, 'keys' | 'usage' | 'close'>> {
  if (!options.databaseUrl) {
    const usage = new UsageStore(options.dataDir);
    return {
      keys: await KeysStore.open(options.dataDir),
      usage: new UsageMeter((accountId, month) => usage.open(accountId, month), options.now),
      close: async () => undefined,
    };
  }
  const database = await openDatabase(options.databaseUrl);
  return { keys: new PgKeyStore(database.pool), usage: new PgUsageLedger(database.pool, options.now), close: () => database.close() };
}

async function openFileStores(options: OpenStoresOptions): Promise<Stores> {
  const warn = options.warn ?? (() => undefined);
  const keys = await KeysStore.open(options.dataDir);
  const usage = new UsageStore(options.dataDir);
  // Documents and templates are indexed, and leftovers of interrupted writes removed, before anything is served.
  const { store: documents, report } = await DocumentsStore.open(options.dataDir, { warn });
  if (report.removedTempFiles + report.removedOrphanPdfs + report.removedOrphanSidecars > 0)
    warn({ ...report }, 'removed leftovers of interrupted document writes');
  const templates = await TemplatesStore.open(options.dataDir, warn);
  const { store: batches, report: batchReport } = await FileBatchStore.open(options.dataDir, warn);
  if (batchReport.removedUncommitted + batchReport.removedTempFiles > 0) warn({ ...batchReport }, 'removed leftovers of interrupted batch writes');
  const meter = new UsageMeter((accountId, month) => usage.open(accountId, month), options.now);
  // Charges of stored renders that a crash cut between charge and store are settled from the documents.
  meter.setChargeResolver(documentChargeResolver(documents));
  return {
    kind: 'files',
    keys,
    usage: meter,
    templates,
    templateVersions: await FileTemplateVersionsStore.open(options.dataDir),
    templateAssets: await FileTemplateAssetsStore.open(options.dataDir),
    documents,
    batches,
    renderCommit: fileRenderCommit(documents, meter),
    receipts: await FileReceiptStore.open(options.dataDir),
    presets: await FilePresetStore.open(options.dataDir),
    events: new EventBus(),
    rateLimits: new MemoryRateLimits(),
    certificates: await FileCertificateStore.open(options.dataDir),
    async close() {
      // Nothing writes documents any more: record the index for a fast next start.
      await documents
        .saveSnapshot()
        .catch((error: unknown) => warn({ err: error }, 'could not record the documents index snapshot; the next start reads every sidecar'));
    },
  };
}

async function openPgStores(options: OpenStoresOptions): Promise<Stores> {
  const database = await openDatabase(options.databaseUrl);
  const { pool } = database;
  const events = await PgEventBus.open(pool, database.url, (error, message) => options.error?.({ err: error }, message)).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  const usage = new PgUsageLedger(pool, options.now);
  const documents = new PgDocumentStore(pool, new PgPdfBlobStore(pool));
  const batches = new PgBatchStore(pool, options.batchLeaseSeconds);
  return {
    kind: 'postgresql',
    keys: new PgKeyStore(pool),
    usage,
    templates: new PgTemplateStore(pool),
    templateVersions: new PgTemplateVersionsStore(pool),
    templateAssets: new PgTemplateAssetsStore(pool),
    documents,
    batches,
    renderCommit: pgRenderCommit(pool, documents, usage, batches),
    receipts: new PgReceiptStore(pool),
    presets: new PgPresetStore(pool),
    events,
    rateLimits: new PgRateLimits(pool),
    certificates: new PgCertificateStore(pool),
    async close() {
      await events.flush();
      events.close();
      await database.close();
    },
  };
}
