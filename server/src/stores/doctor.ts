// `npm run cli -- doctor`: finds the store files under DATA_DIR that do not parse or validate (the
// ones start-up stops on, or that fail one key's calls), and moves one aside into
// DATA_DIR/quarantine/ when the user names it. Never repairs or deletes anything by itself.

import { mkdir, readdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { readBatchState } from './batches.ts';
import { readDocumentSidecar } from './documents-reconcile.ts';
import { StoreReadError, syncFolder } from './durable-file.ts';
import { KeysStore } from './keys.ts';
import { parseStoreJson } from './json-file.ts';
import { readTemplateFile } from './templates.ts';
import { validateUsage } from './usage.ts';

export interface DamagedFile {
  /** Relative to DATA_DIR. */
  file: string;
  problem: string;
}

/** Every damaged store file under dataDir, in a stable order. */
export async function findDamagedFiles(dataDir: string): Promise<DamagedFile[]> {
  const damaged: DamagedFile[] = [];
  const report = (file: string, problem: string) => damaged.push({ file: path.relative(dataDir, file), problem });
  await KeysStore.open(dataDir).catch((error: unknown) => {
    if (!(error instanceof StoreReadError)) throw error;
    report(error.file, error.problem);
  });
  for (const file of await jsonFilesTwoDown(path.join(dataDir, 'usage'))) {
    const text = await readFile(file, 'utf8');
    try {
      parseStoreJson(file, text, (data) => validateUsage(data, path.basename(path.dirname(file)), path.basename(file, '.json')));
    } catch (error) {
      if (error instanceof StoreReadError) report(file, error.problem);
    }
  }
  for (const file of await jsonFilesTwoDown(path.join(dataDir, 'documents'))) {
    const record = readDocumentSidecar(file);
    if (record instanceof Error) report(file, record.message);
  }
  for (const file of await jsonFilesTwoDown(path.join(dataDir, 'templates'))) {
    const record = await readTemplateFile(file);
    if (record instanceof Error) report(file, record.message);
  }
  for (const folder of await readdir(path.join(dataDir, 'batches')).catch(() => [] as string[])) {
    const file = path.join(dataDir, 'batches', folder, 'state.json');
    const record = readBatchState(file);
    if (record instanceof Error && (record as NodeJS.ErrnoException).code !== 'ENOENT') report(file, record.message);
  }
  return damaged;
}

/**
 * Moves one damaged file (as findDamagedFiles names it) to DATA_DIR/quarantine/, keeping its
 * path in the name; returns where it went. Refuses a file that is not damaged.
 */
export async function quarantine(dataDir: string, relativeFile: string): Promise<string> {
  const damaged = await findDamagedFiles(dataDir);
  const wanted = path.normalize(relativeFile);
  if (!damaged.some((entry) => entry.file === wanted)) throw new Error(`${relativeFile} is not among the damaged files that doctor lists`);
  const folder = path.join(dataDir, 'quarantine');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const target = path.join(folder, `${wanted.split(path.sep).join('__')}.${new Date().toISOString().replace(/[:.]/g, '-')}`);
  await rename(path.join(dataDir, wanted), target);
  await syncFolder(folder);
  await syncFolder(path.dirname(path.join(dataDir, wanted)));
  return path.relative(dataDir, target);
}

async function jsonFilesTwoDown(root: string): Promise<string[]> {
  const files: string[] = [];
  for (const folder of (await readdir(root).catch(() => [] as string[])).sort()) {
    for (const name of (await readdir(path.join(root, folder)).catch(() => [] as string[])).sort()) {
      if (name.endsWith('.json') && !name.startsWith('.')) files.push(path.join(root, folder, name));
    }
  }
  return files;
}
