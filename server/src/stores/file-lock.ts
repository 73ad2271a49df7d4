// A lock file for read-modify-write of a store file that another process (the CLI beside a
// running server) may also change. Held for milliseconds; a lock left by a dead process is taken over.

import { randomBytes } from 'node:crypto';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { isProcessRunning } from '../process-alive.ts';

export class LockTimeoutError extends Error {}

/** Written into our locks: a lock with our pid but another tag is a dead predecessor's (pid reuse after a restart). */
const PROCESS_TAG = `${process.pid}:${randomBytes(6).toString('hex')}`;
let acquisitions = 0;

/** Runs fn while holding lockFile (created exclusively, holding "pid:process tag:n"). */
export async function withFileLock<R>(lockFile: string, fn: () => Promise<R>, timeoutMs = 5_000): Promise<R> {
  const deadline = Date.now() + timeoutMs;
  const token = `${PROCESS_TAG}:${++acquisitions}`;
  for (;;) {
    try {
      const handle = await open(lockFile, 'wx', 0o600);
      await handle.writeFile(token);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const content = await readFile(lockFile, 'utf8').catch(() => '');
      const holder = Number(content.split(':')[0]);
      const unnamed = !(Number.isInteger(holder) && holder > 0);
      // A lock of this very process is never stale: it is held, or about to be removed.
      const ours = content.startsWith(`${PROCESS_TAG}:`);
      const stale = unnamed ? await isOlderThan(lockFile, 2_000) : !ours && (holder === process.pid || !isProcessRunning(holder));
      if (stale) {
        await rm(lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new LockTimeoutError(`${lockFile} is held by process ${holder || 'unknown'}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lockFile, { force: true });
  }
}

async function isOlderThan(file: string, ms: number): Promise<boolean> {
  const info = await stat(file).catch(() => undefined);
  return info !== undefined && Date.now() - info.mtimeMs > ms;
}

