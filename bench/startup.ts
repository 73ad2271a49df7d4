// Bench: how long opening DATA_DIR takes (keys, documents index, templates, batches: everything
// start-up reads before serving, Chromium aside) with 100,000 stored documents and 10,000 keys,
// the first time (every sidecar read) and after a clean stop (index snapshot); and what listing a
// page of keys with usage (GET /admin/v1/keys) costs at 10 and 10,000 keys. Ratios are against
// an empty DATA_DIR / 10 keys, measured in the same run.
// Run: npx tsx bench/startup.ts   (the main bench imports startupTable)

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateApiKey, hashSecret } from '../server/src/accounts/keys.ts';
import { newId } from '../server/src/ids.ts';
import { openKeysService } from '../server/src/services/accounts/keys.ts';
import { openAccountStores } from '../server/src/stores/open-stores.ts';
import { FileBatchStore } from '../server/src/stores/batches.ts';
import { DocumentsStore } from '../server/src/stores/documents.ts';
import { KeysStore, type KeyRecord } from '../server/src/stores/keys.ts';
import { TemplatesStore } from '../server/src/stores/templates.ts';
import { seedDocuments } from './seed-documents.ts';

const PDF = new Uint8Array(Buffer.from('%PDF-1.7\n% bench\n%%EOF\n'));
const PLANS_FILE = '';

/**
 * Opens what start-up opens before serving; returns wall and CPU milliseconds (on a shared,
 * loaded machine the CPU time is the steadier figure: start-up does nothing in parallel).
 */
async function openAll(dataDir: string): Promise<{ ms: number; cpuMs: number; store: DocumentsStore }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await openKeys(dataDir);
  const { store } = await DocumentsStore.open(dataDir);
  await TemplatesStore.open(dataDir);
  await FileBatchStore.open(dataDir);
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, store };
}

/** The keys service on the files of dataDir, as start-up opens it. */
async function openKeys(dataDir: string) {
  const { keys: store, usage: meter } = await openAccountStores({ dataDir, databaseUrl: '' });
  return openKeysService({ store, meter, plansFile: PLANS_FILE });
}

export async function seed(dataDir: string, keys: number, documents: number): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const at = new Date().toISOString();
  const records: KeyRecord[] = Array.from({ length: keys }, (_, n) => ({
    id: newId('key'),
    name: `bench ${n}`,
    planId: 'business',
    autoStore: false,
    keyHash: hashSecret(generateApiKey()),
    createdAt: at,
    updatedAt: at,
    revokedAt: null,
  }));
  await (await KeysStore.open(dataDir)).insert(...records);
  await seedDocuments(dataDir, documents, PDF, (n) => ({
    keyId: records[n % records.length]!.id,
    filename: null,
    planId: 'business',
    retention: '1y',
    retentionSeconds: 365 * 86_400,
  }));
  execFileSync('sync');
}

/** Milliseconds (median of `times`) for the first page of keys with usage, usage counters warm. */
async function listKeysMs(dataDir: string, times = 200): Promise<number> {
  const { keys } = await openKeys(dataDir);
  await keys.page(20, undefined);
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    const page = await keys.page(20, undefined);
    await keys.page(20, page.nextCursor ?? undefined);
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

export async function startupTable(documents = 100_000, keys = 10_000): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-startup-'));
  try {
    const small = path.join(root, 'small');
    const large = path.join(root, 'large');
    await seed(small, 10, 0);
    await seed(large, keys, documents);
    // Each start in its own process, as a real one: nothing of an earlier open is in memory.
    const baseline = openInChild(small);
    const first = openInChild(large);
    // A clean stop records the snapshot; the next start reads it.
    await (await DocumentsStore.open(large)).store.saveSnapshot();
    const warm = openInChild(large);
    const warmBaseline = openInChild(small);
    const listSmall = await listKeysMs(small);
    const listLarge = await listKeysMs(large);
    const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}x`;
    return [
      `Start-up (open every store, Chromium aside) and key listing: ${documents.toLocaleString('en')} documents, ${keys.toLocaleString('en')} keys vs 10 keys, empty`,
      '',
      '| measure | large ms (wall / CPU) | small ms (wall / CPU) | ratio (wall) |',
      '|---|---|---|---|',
      `| start-up, first (every sidecar read) | ${first.ms.toFixed(0)} / ${first.cpuMs.toFixed(0)} | ${baseline.ms.toFixed(0)} / ${baseline.cpuMs.toFixed(0)} | ${ratio(first.ms, baseline.ms)} |`,
      `| start-up after a clean stop (index snapshot) | ${warm.ms.toFixed(0)} / ${warm.cpuMs.toFixed(0)} | ${warmBaseline.ms.toFixed(0)} / ${warmBaseline.cpuMs.toFixed(0)} | ${ratio(warm.ms, warmBaseline.ms)} |`,
      `| GET /admin/v1/keys, two pages of 20 with usage | ${listLarge.toFixed(3)} | ${listSmall.toFixed(3)} | ${ratio(listLarge, listSmall)} |`,
    ].join('\n');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Runs openAll in a fresh node process (this file with --open DIR); its figures. */
function openInChild(dataDir: string): { ms: number; cpuMs: number } {
  const output = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--open', dataDir], { encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').at(-1)!) as { ms: number; cpuMs: number };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.argv[2] === '--open') {
  const { ms, cpuMs } = await openAll(process.argv[3]!);
  console.log(JSON.stringify({ ms, cpuMs }));
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const documents = Number(process.env.BENCH_STARTUP_DOCUMENTS ?? 100_000);
  const keys = Number(process.env.BENCH_STARTUP_KEYS ?? 10_000);
  console.log(await startupTable(documents, keys));
}
