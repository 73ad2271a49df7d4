// The one way stores put JSON on disk: a lowdb adapter that replaces the file atomically
// (write a temporary file, fsync it, rename it over the old one), so a crash at any moment
// leaves either the old or the new JSON, never a torn file.
// Why not lowdb's JSONFile (steno): its temporary name is fixed per file, so the CLI and a
// running server writing keys.json at the same moment could rename each other's half-written
// file into place; it does not fsync; and an early writer's promise waits for every write
// queued after it. Here the temporary name is unique to the process and the adapter instance,
// and each write resolves on its own.

import { open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Low, type Adapter } from 'lowdb';
import { isProcessRunning } from '../process-alive.ts';
import { CoalescingWriter } from './coalescing-writer.ts';

export class StoreReadError extends Error {}


let instances = 0;

/** lowdb adapter for one JSON file. */
export class AtomicJsonFile<T> implements Adapter<T> {
  private readonly tempFile: string;
  private readonly writer = new CoalescingWriter((text) => this.replace(text));

  constructor(readonly file: string) {
    this.tempFile = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${++instances}.tmp`);
  }

  /** Reads and parses the file; null when it does not exist yet. */
  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new StoreReadError(`${this.file} is not valid JSON (${(error as Error).message})`);
    }
  }

  /**
   * Writes data (serialized now) and resolves once it, or newer data, is on disk. Writes
   * arriving while one is in flight are coalesced into the next one.
   */
  write(data: T): Promise<void> {
    return this.writer.write(JSON.stringify(data, null, 2));
  }

  /** Removes temporary files left by processes that died mid-write. */
  async removeStaleTempFiles(): Promise<void> {
    const prefix = `.${path.basename(this.file)}.`;
    const names = await readdir(path.dirname(this.file)).catch(() => [] as string[]);
    for (const name of names) {
      const pid = Number(name.slice(prefix.length, -'.tmp'.length).split('-')[0]);
      if (name.startsWith(prefix) && name.endsWith('.tmp') && Number.isInteger(pid) && !isProcessRunning(pid)) {
        await rm(path.join(path.dirname(this.file), name), { force: true });
      }
    }
  }

  private async replace(text: string): Promise<void> {
    // Every version gets a later mtime than the one it replaces (file clocks tick coarsely), so a
    // reader that compares inode, mtime and size never takes a new version for the old one.
    const previous = await stat(this.file).catch(() => undefined);
    const mtime = new Date(Math.max(Date.now(), Math.floor(previous?.mtimeMs ?? 0) + 1));
    const handle = await open(this.tempFile, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.utimes(mtime, mtime);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(this.tempFile, this.file);
  }
}

/** Opens a lowdb database on an atomic JSON file, with defaultData when the file is new. */
export async function openJsonDb<T>(file: string, defaultData: T): Promise<Low<T>> {
  const adapter = new AtomicJsonFile<T>(file);
  await adapter.removeStaleTempFiles();
  const db = new Low<T>(adapter, defaultData);
  await db.read();
  return db;
}

