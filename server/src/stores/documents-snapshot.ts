// The documents index snapshot, DATA_DIR/documents/index-snapshot.json: what start-up found in
// each key folder, with the folder's mtime (ns) as it was *before* its entries were read. At the
// next start a folder whose mtime is unchanged, and was already 2 s old when it was recorded
// (file clocks tick coarsely; a change after the recording always moves it), is taken from the
// snapshot; any other folder is scanned. Every document change creates, renames or removes an
// entry in its folder, so an unchanged folder holds exactly what the snapshot says.
// A derived cache, not stored data: one that does not parse is ignored (and replaced), never fatal.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DocumentRecord, DocumentSource } from './documents.ts';
import { removeAbandonedTempFiles, writeFileDurably } from './durable-file.ts';

/** One folder as recorded: its mtime before reading, when that was, and its sidecars (tombstones included). */
export interface FolderSnapshot {
  mtimeNs: string;
  statMs: number;
  records: DocumentRecord[];
}

/** Compact form of a record in the file (the key id is the folder's). */
type Row = [string, string | null, number, string, string, DocumentSource, string | null, string, string, 'stored' | 'expired', string | null];

interface SnapshotFile {
  version: 1;
  folders: Record<string, { mtimeNs: string; statMs: number; rows: Row[] }>;
}

const FILE = 'index-snapshot.json';
/** A folder recorded with an mtime younger than this may still change within the same clock tick. */
const SETTLED_MS = 2_000;

/** Reads the snapshot of a documents root; an empty map when there is none or it is unreadable. */
export async function readDocumentsSnapshot(root: string): Promise<Map<string, FolderSnapshot>> {
  const folders = new Map<string, FolderSnapshot>();
  await removeAbandonedTempFiles(path.join(root, FILE));
  let parsed: SnapshotFile;
  try {
    parsed = JSON.parse(await readFile(path.join(root, FILE), 'utf8')) as SnapshotFile;
    if (parsed?.version !== 1 || typeof parsed.folders !== 'object') return folders;
  } catch {
    return folders;
  }
  for (const [keyId, folder] of Object.entries(parsed.folders)) {
    const records = folder.rows.map(([id, filename, size, createdAt, expiresAt, source, batchId, planId, retention, state, expiredAt]) => ({
      id, keyId, filename, size, createdAt, expiresAt, source, batchId, planId, retention, state, expiredAt,
    }));
    folders.set(keyId, { mtimeNs: folder.mtimeNs, statMs: folder.statMs, records });
  }
  return folders;
}

/** Whether a recorded folder can stand for the folder whose mtime is now `mtimeNs`. */
export function isFolderUnchanged(recorded: FolderSnapshot | undefined, mtimeNs: bigint): recorded is FolderSnapshot {
  return recorded !== undefined && recorded.mtimeNs === String(mtimeNs) && Number(mtimeNs / 1_000_000n) < recorded.statMs - SETTLED_MS;
}

/** Writes the snapshot durably (one write path for every store). */
export async function writeDocumentsSnapshot(root: string, folders: ReadonlyMap<string, FolderSnapshot>, sync = true): Promise<void> {
  const file: SnapshotFile = { version: 1, folders: {} };
  for (const [keyId, folder] of folders) {
    file.folders[keyId] = {
      mtimeNs: folder.mtimeNs,
      statMs: folder.statMs,
      rows: folder.records.map((r) => [r.id, r.filename, r.size, r.createdAt, r.expiresAt, r.source, r.batchId, r.planId, r.retention, r.state, r.expiredAt]),
    };
  }
  await writeFileDurably(path.join(root, FILE), JSON.stringify(file), { sync });
}
