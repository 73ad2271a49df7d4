// DATA_DIR/server.json: how local tools on the same machine find the running server (base URL,
// port, pid, version). Written once the server listens, removed when it stops; a file left by a
// crash names a pid that no longer runs. It never holds the admin token or any key.

import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileDurably } from './durable-file.ts';

export const DISCOVERY_FILE = 'server.json';

export interface DiscoveryInfo {
  base_url: string;
  port: number;
  pid: number;
  version: string;
  started_at: string;
}

/** Writes DATA_DIR/server.json for this process (atomically: a reader sees the old file or the new one). */
export async function writeDiscoveryFile(dataDir: string, info: DiscoveryInfo): Promise<void> {
  await writeFileDurably(path.join(dataDir, DISCOVERY_FILE), `${JSON.stringify(info, null, 2)}\n`, { sync: false });
}

/** Removes DATA_DIR/server.json if it still names this process (another server may have started on the folder since). */
export async function removeDiscoveryFile(dataDir: string, pid: number): Promise<void> {
  const file = path.join(dataDir, DISCOVERY_FILE);
  try {
    const written = JSON.parse(await readFile(file, 'utf8')) as Partial<DiscoveryInfo>;
    if (written.pid === pid) await rm(file, { force: true });
  } catch {
    // Gone already, or not ours to judge.
  }
}
