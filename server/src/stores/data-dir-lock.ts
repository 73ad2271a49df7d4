// One owner per DATA_DIR: the server (or a CLI writing without a server) holds DATA_DIR/quire.lock,
// a file naming its pid, its process start time and, for a server, its URL. The lock dies with
// the process: a holder whose pid is gone, or whose pid now belongs to a process that started at
// another time (pid reuse after a kill -9, a container's pid 1), is stale and taken over, so no
// human ever has to delete it. A live holder makes a second owner refuse (DataDirLockedError).

import { readFileSync } from 'node:fs';
import { link, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isProcessRunning } from '../process-alive.ts';
import { syncFolder } from './durable-file.ts';

export interface LockHolder {
  pid: number;
  /** Process start time (Linux: clock ticks since boot, /proc/<pid>/stat); null elsewhere. */
  started: string | null;
  role: 'server' | 'cli';
  /** The server's base URL once it listens (the CLI talks to it through the admin API). */
  url: string | null;
  /** Unique per acquisition, so a takeover can tell which file it judged stale. */
  token: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `${dataDir} is in use by another Quire ${holder.role} (pid ${holder.pid}${holder.url ? `, ${holder.url}` : ''}); stop it first, or use another DATA_DIR.`,
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly file: string;
  /** Records the server's URL in the lock file, for the CLI. */
  setUrl(url: string): Promise<void>;
  /** Gives the folder up (clean stop). */
  release(): Promise<void>;
}

const LOCK = 'quire.lock';

/** Takes DATA_DIR's lock, or throws DataDirLockedError naming the live holder. */
export async function lockDataDir(dataDir: string, role: LockHolder['role']): Promise<DataDirLock> {
  const file = path.join(dataDir, LOCK);
  const me: LockHolder = { pid: process.pid, started: startTimeOf(process.pid), role, url: null, token: randomBytes(8).toString('hex') };
  for (let attempt = 0; ; attempt++) {
    if (await createExclusively(file, me)) break;
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue; // released meanwhile
    const holder = parseHolder(text);
    if (holder && isAlive(holder)) throw new DataDirLockedError(dataDir, holder);
    if (attempt > 20) throw new Error(`could not take ${file}: it keeps changing`);
    await takeOverStale(file, text);
  }
  let released = false;
  return {
    file,
    async setUrl(url: string) {
      me.url = url;
      const temp = `${file}.${me.token}.tmp`;
      await writeWhole(temp, me);
      await rename(temp, file);
    },
    async release() {
      if (released) return;
      released = true;
      const text = await readFile(file, 'utf8').catch(() => '');
      if (parseHolder(text)?.token === me.token) await rm(file, { force: true });
    },
  };
}

/** The live holder of DATA_DIR's lock, if any (the CLI: is a server running here?). */
export async function lockHolder(dataDir: string): Promise<LockHolder | undefined> {
  const holder = parseHolder(await readFile(path.join(dataDir, LOCK), 'utf8').catch(() => ''));
  return holder && isAlive(holder) ? holder : undefined;
}

async function createExclusively(file: string, me: LockHolder): Promise<boolean> {
  // Written whole under a private name, then linked into place: link fails if the lock exists,
  // and a reader never sees a half-written lock.
  const temp = `${file}.${me.token}.tmp`;
  await writeWhole(temp, me);
  try {
    await link(temp, file);
    await syncFolder(path.dirname(file));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
}

/** Moves a stale lock aside, unless another process replaced it meanwhile (then it is put back if possible). */
async function takeOverStale(file: string, judged: string): Promise<void> {
  const aside = `${file}.stale-${randomBytes(6).toString('hex')}`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readFile(aside, 'utf8').catch(() => judged);
  // A live lock taken between our read and our rename goes back where it was.
  if (moved !== judged) await link(aside, file).catch(() => undefined);
  await rm(aside, { force: true });
}

async function writeWhole(file: string, holder: LockHolder): Promise<void> {
  const handle = await open(file, 'w', 0o600);
  try {
    await handle.writeFile(JSON.stringify(holder));
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(text) as LockHolder;
    return Number.isInteger(holder?.pid) && holder.pid > 0 ? holder : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(holder: LockHolder): boolean {
  if (!isProcessRunning(holder.pid)) return false;
  // Same pid, another start time: the pid was reused by an unrelated (or our own, restarted) process.
  const started = startTimeOf(holder.pid);
  return holder.started === null || started === null || started === holder.started;
}

/** Linux: the process's start time from /proc (field 22 of stat); null where there is no /proc. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}
