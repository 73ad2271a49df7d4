// Whole-file writes that are on disk when they resolve, for files written once or replaced whole
// (stored PDFs, their sidecars, templates): a temporary file beside the target, fsync'd, renamed
// over it, then the folder fsync'd so the rename itself survives a power cut. A crash leaves the
// old file or the new one, plus at most a temporary file that start-up removes.
// Temporary names follow stores/json-file.ts (".<name>.<pid>-<n>.tmp"), so leftovers of either
// are recognised the same way. Not a lowdb adapter: nothing here is read-modify-write.

import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { isProcessRunning } from '../process-alive.ts';

let writes = 0;

export interface DurableWriteOptions {
  /** false skips both fsyncs: only for benches that seed thousands of files. */
  sync?: boolean;
}

/** Writes data to file atomically (temp + fsync + rename + folder fsync); resolves once it is durable. */
export async function writeFileDurably(file: string, data: string | Uint8Array, options: DurableWriteOptions = {}): Promise<void> {
  const sync = options.sync ?? true;
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${++writes}.tmp`);
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(data);
    if (sync) await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  if (sync) await syncFolder(path.dirname(file));
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
