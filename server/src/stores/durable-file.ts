// The one durable-write path of the file stores: a temporary file beside the target, fsync'd,
// renamed over it, then the folder fsync'd so the rename itself survives a power cut. A crash
// leaves the old file or the new one, plus at most a temporary file that start-up removes.
// Every store (keys, usage, documents, templates, batches, the index snapshot) writes through
// writeFileDurably and applies a change to memory only after it resolves. A full disk surfaces
// as StorageFullError (507 insufficient_storage), with the target file untouched.

import { open, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { isProcessRunning } from '../process-alive.ts';

let writes = 0;

/** The disk (or the user's quota) is full: nothing was written. */
export class StorageFullError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`no space left to write ${file}`, { cause });
    this.name = 'StorageFullError';
  }
}

/** A store file that does not parse or validate: reported by name, never replaced or emptied. */
export class StoreReadError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file} is damaged: ${problem}. It was left as it is; run \`npm run cli -- doctor\` to list damaged files and move one aside.`);
    this.name = 'StoreReadError';
  }
}

export interface DurableWriteOptions {
  /** false skips both fsyncs: only for benches that seed thousands of files. */
  sync?: boolean;
}

/** Writes data to file atomically (temp + fsync + rename + folder fsync); resolves once it is durable. */
export async function writeFileDurably(file: string, data: string | Uint8Array, options: DurableWriteOptions = {}): Promise<void> {
  const sync = options.sync ?? true;
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${++writes}.tmp`);
  try {
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(data);
      if (sync) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw asStorageError(file, error);
  }
  if (sync) await syncFolder(path.dirname(file)).catch((error: unknown) => Promise.reject(asStorageError(file, error)));
}

/** fsyncs a folder so that creations, renames and removals in it are durable. */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** ENOSPC / EDQUOT become StorageFullError; anything else passes through. */
export function asStorageError(file: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' ? new StorageFullError(file, error) : error;
}

/**
 * Whether a file name is a temporary file that nobody will finish: one of ours written by a
 * process that is gone. `startingUp` also counts this process's own pid as gone (a process that
 * reused the pid of a crashed predecessor, as in a container where the server is always pid 1).
 */
export function isAbandonedTempFile(name: string, startingUp: boolean): boolean {
  const match = /^\..+\.(\d+)-\d+\.tmp$/.exec(name);
  if (!match) return false;
  const pid = Number(match[1]);
  return (startingUp && pid === process.pid) || !isProcessRunning(pid);
}

/** Removes abandoned temporary files of `file` (start-up). */
export async function removeAbandonedTempFiles(file: string): Promise<void> {
  const prefix = `.${path.basename(file)}.`;
  for (const name of await readdir(path.dirname(file)).catch(() => [] as string[])) {
    if (name.startsWith(prefix) && isAbandonedTempFile(name, true)) await rm(path.join(path.dirname(file), name), { force: true });
  }
}
