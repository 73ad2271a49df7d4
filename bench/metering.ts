// Bench: what metering adds to one render (key lookup, then reserve + persist of the usage count)
// with 0, 1,000 and 10,000 other keys on file. The figures must not grow with the key count.
// Run: npx tsx bench/metering.ts   (the main bench imports measureMetering)

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateApiKey, hashSecret } from '../server/src/accounts/keys.ts';
import { monthOf, timeMetering } from '../server/src/accounts/usage.ts';
import { newId } from '../server/src/ids.ts';
import { openKeysService } from '../server/src/services/accounts/keys.ts';
import { KeysStore, type KeyRecord } from '../server/src/stores/keys.ts';
import { openStores } from '../server/src/stores/open-stores.ts';

export interface MeteringFigures {
  keys: number;
  renders: number;
  /** Milliseconds per render: authenticate the key (hash + lookup + freshness check of keys.json). */
  lookup: Summary;
  /** Milliseconds per render: reserve one document and write the count (fsync included). */
  reservePersist: Summary;
}

export interface Summary {
  mean: number;
  p50: number;
  p95: number;
}

/** Measures metering cost per render with `keyCount` other keys (and their usage files) present. */
export async function measureMetering(keyCount: number, renders = 300): Promise<MeteringFigures> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-metering-'));
  try {
    const month = monthOf(new Date());
    const at = new Date().toISOString();
    const record = (keyHash: string): KeyRecord => ({
      id: newId('key'),
      name: 'bench',
      planId: 'business',
      autoStore: false,
      keyHash,
      createdAt: at,
      updatedAt: at,
      revokedAt: null,
    });
    const others = Array.from({ length: keyCount }, () => record(hashSecret(generateApiKey())));
    const benchKeys = Array.from({ length: 10 }, generateApiKey);
    const benchRecords = benchKeys.map((key) => record(hashSecret(key)));
    await (await KeysStore.open(dataDir)).insert(...others, ...benchRecords);
    // Every other key has rendered this month too, so the usage folder is as full as it gets.
    for (const other of others) {
      await mkdir(path.join(dataDir, 'usage', other.id), { recursive: true });
      await writeFile(path.join(dataDir, 'usage', other.id, `${month}.json`), JSON.stringify({ account_id: other.id, month, used: 1, updated_at: at }));
    }

    const stores = await openStores({ dataDir, databaseUrl: '' });
    const { keys, meter } = await openKeysService({ store: stores.keys, meter: stores.usage, plansFile: '' });
    const plan = keys.plans().find((candidate) => candidate.id === 'business')!;
    const accountIds = benchRecords.map((benchRecord) => benchRecord.id);
    await timeMetering(meter, accountIds, plan, 20); // warm-up: open each account's usage file

    const lookups: number[] = [];
    for (let i = 0; i < renders; i++) {
      const started = performance.now();
      const account = await keys.authenticate(benchKeys[i % benchKeys.length]!);
      lookups.push(performance.now() - started);
      if (!account) throw new Error('bench key not found');
    }
    const reservePersist = await timeMetering(meter, accountIds, plan, renders);
    return { keys: keyCount, renders, lookup: summarize(lookups), reservePersist: summarize(reservePersist) };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

function summarize(times: number[]): Summary {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { mean: sorted.reduce((sum, t) => sum + t, 0) / sorted.length, p50: at(0.5), p95: at(0.95) };
}

async function main(): Promise<void> {
  console.log('metering per render, ms (mean / p50 / p95)');
  console.log(`${'keys'.padStart(7)}  ${'key lookup'.padEnd(22)}  reserve + persist`);
  for (const count of [0, 1_000, 10_000]) {
    const figures = await measureMetering(count);
    const show = (s: Summary) => `${s.mean.toFixed(3)} / ${s.p50.toFixed(3)} / ${s.p95.toFixed(3)}`;
    console.log(`${String(count).padStart(7)}  ${show(figures.lookup).padEnd(22)}  ${show(figures.reservePersist)}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
