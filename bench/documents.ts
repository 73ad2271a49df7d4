// Bench: what keeping a stored copy adds to a render (the store step: PDF and sidecar written
// durably), and what listing one page of documents costs, with 0, 10,000 and 100,000 documents
// already stored. Both must stay flat as the collection grows. Also: how long start-up takes to
// index (and reconcile) the collection.
// Documents are seeded straight through the store (without fsync, to keep the bench short), not
// by rendering; the measured writes are durable, as in the server.
// Run: npx tsx bench/documents.ts   (the main bench imports measureDocuments)

import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DocumentsService } from '../server/src/services/accounts/documents.ts';
import { DocumentsStore } from '../server/src/stores/documents.ts';
import { seedDocuments } from './seed-documents.ts';

export interface Summary {
  p50: number;
  p95: number;
}

export interface DocumentsFigures {
  stored: number;
  /** Milliseconds to open the store: scan every sidecar, reconcile, build the indexes (warm page cache). */
  startupMs: number;
  /** Milliseconds per stored render's store step (PDF + sidecar, fsync'd, indexed). */
  store: Summary;
  /** Milliseconds to list the first page (20) of one key's documents. */
  firstPage: Summary;
  /** Milliseconds to list a page (20) from a cursor in the middle of the collection. */
  middlePage: Summary;
}

const KEY = 'key_bench0000000000';
const STORAGE = { planId: 'business', retention: '2y', retentionSeconds: 2 * 365 * 86_400 };
/** About the size of the bench's 2-page invoice. */
const PDF = new Uint8Array(randomBytes(40 * 1024));

/**
 * Measures the store step and page listing at each size. Each size has its own folder, seeded
 * first; the measurements then go round the sizes in small rounds, so that whatever else the
 * machine is doing meanwhile falls on every size alike.
 */
export async function measureDocuments(sizes: readonly number[] = [0, 10_000, 100_000], writes = 300, lists = 1_000, rounds = 10): Promise<DocumentsFigures[]> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-documents-'));
  try {
    const cases = [];
    for (const [i, size] of sizes.entries()) {
      const dataDir = path.join(root, String(i));
      await seed(dataDir, size);
      // Seeding leaves hundreds of MB unwritten in the page cache; flush it now, or the first
      // measured fsyncs pay for writing it out.
      execFileSync('sync');
      const opened = performance.now();
      const { store } = await DocumentsStore.open(dataDir);
      const startupMs = performance.now() - opened;
      const documents = new DocumentsService({ store, tombstoneSeconds: 86_400 });
      // A cursor half-way down the collection, found by walking pages of 100.
      let middleCursor: string | undefined;
      for (let page = await documents.list(KEY, 100, undefined), n = 0; page.nextCursor && n < Math.floor(size / 200); n++) {
        middleCursor = page.nextCursor;
        page = await documents.list(KEY, 100, middleCursor);
      }
      cases.push({
        size,
        startupMs,
        documents,
        documentStore: store,
        middleCursor,
        store: [] as number[],
        firstPage: [] as number[],
        middlePage: [] as number[],
      });
    }
    for (let round = 0; round < rounds; round++) {
      for (const item of cases) {
        for (let i = 0; i < writes / rounds; i++) {
          const started = performance.now();
          await item.documentStore.put(item.documents.recordFor({ keyId: KEY, storage: STORAGE, pdf: PDF, source: 'render' }), PDF);
          item.store.push(performance.now() - started);
        }
        for (let i = 0; i < lists / rounds; i++) {
          let started = performance.now();
          await item.documents.list(KEY, 20, undefined);
          item.firstPage.push(performance.now() - started);
          started = performance.now();
          await item.documents.list(KEY, 20, item.middleCursor);
          item.middlePage.push(performance.now() - started);
        }
      }
    }
    return cases.map((item) => ({
      stored: item.size,
      startupMs: item.startupMs,
      store: summarize(item.store),
      firstPage: summarize(item.firstPage),
      middlePage: summarize(item.middlePage),
    }));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Stores `count` documents through the store without fsync, 32 at a time, a few seconds apart over the last month. */
async function seed(dataDir: string, count: number): Promise<void> {
  await seedDocuments(dataDir, count, PDF, (n) => ({ keyId: KEY, filename: `invoice-${n}.pdf`, ...STORAGE }));
}

function summarize(times: number[]): Summary {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95) };
}

/** The figures as a markdown table, for bench/results and docs/benchmark.md. */
export function documentsTable(figures: readonly DocumentsFigures[]): string {
  const ms = (s: Summary, digits = 2) => `${s.p50.toFixed(digits)} / ${s.p95.toFixed(digits)}`;
  const rows = [
    '| documents stored | store step ms (p50 / p95) | list first page ms (p50 / p95) | list a middle page ms (p50 / p95) | start-up index s |',
    '|---|---|---|---|---|',
    ...figures.map(
      (f) => `| ${f.stored.toLocaleString('en')} | ${ms(f.store)} | ${ms(f.firstPage, 3)} | ${ms(f.middlePage, 3)} | ${(f.startupMs / 1000).toFixed(2)} |`,
    ),
  ];
  return rows.join('\n');
}

async function main(): Promise<void> {
  const sizes = process.env.BENCH_DOCUMENTS?.split(',').map(Number) ?? [0, 10_000, 100_000];
  console.log(`stored documents: store step and page listing at ${sizes.join(', ')} documents\n`);
  console.log(documentsTable(await measureDocuments(sizes)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
