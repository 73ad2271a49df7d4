// The documents index snapshot, DATA_DIR/documents/index-snapshot.json: every document record
// (tombstones included) in index order (oldest first), and per key folder its mtime (ns) as it
// was *before* its entries were read. At the next start a folder whose mtime is unchanged, and
// was already 2 s old when it was recorded (file clocks tick coarsely; a change after the
// recording always moves it), is taken from the snapshot; any other folder is scanned. Every
// document change creates, renames or removes an entry in its folder, so an unchanged folder
// holds exactly what the snapshot says. Rows are stored sorted with their times as numbers, so a
// start from the snapshot neither parses dates nor sorts.
// A derived cache, not stored data: one that does not parse is ignored (and replaced), never fatal.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { documentSourceOf, type DocumentSource, type StoredDocument } from './document-record.ts';
import { removeAbandonedTempFiles, writeFileDurably } from './durable-file.ts';

/** One key folder as recorded: its mtime before reading, and when that was. */
export interface FolderStamp {
  mtimeNs: string;
  statMs: number;
}

export interface DocumentsSnapshot {
  folders: Map<string, FolderStamp>;
  /** Every record, oldest first (index order). */
  documents: StoredDocument[];
}

/** Compact form of a record in the file. */
type Row = [
  string,
  string,
  string | null,
  number,
  string,
  number,
  string,
  number,
  DocumentSource,
  string | null,
  string,
  string,
  'stored' | 'expired',
  string | null,
  // The page count (null: unknown), added after version 2 was first written: rows without it read as unknown.
  (number | null)?,
];

interface SnapshotFile {
  version: 2;
  folders: Record<string, FolderStamp>;
  rows: Row[];
}

const FILE = 'index-snapshot.json';
/** A folder recorded with an mtime younger than this may still change within the same clock tick. */
const SETTLED_MS = 2_000;

/** Reads the snapshot of a documents root; empty when there is none or it is unreadable. */
export async function readDocumentsSnapshot(root: string): Promise<DocumentsSnapshot> {
  const empty: DocumentsSnapshot = { folders: new Map(), documents: [] };
  await removeAbandonedTempFiles(path.join(root, FILE));
  let parsed: SnapshotFile;
  try {
    // Synchronous: start-up, nothing is served yet, and a big file read in one go is quicker.
    parsed = JSON.parse(readFileSync(path.join(root, FILE), 'utf8')) as SnapshotFile;
    if (parsed?.version !== 2 || typeof parsed.folders !== 'object' || !Array.isArray(parsed.rows)) return empty;
  } catch {
    return empty;
  }
  const documents = parsed.rows.map(
    ([keyId, id, filename, size, createdAt, createdMs, expiresAt, expiresMs, source, batchId, planId, retention, state, expiredAt, pages]): StoredDocument => ({
      id,
      keyId,
      filename,
      size,
      ...(typeof pages === 'number' ? { pages } : {}),
      createdAt,
      expiresAt,
      source: documentSourceOf(source),
      batchId,
      planId,
      retention,
      state,
      expiredAt,
      createdMs,
      expiresMs,
    }),
  );
  return { folders: new Map(Object.entries(parsed.folders)), documents };
}

/** Whether a recorded folder can stand for the folder whose mtime is now `mtimeNs`. */
export function isFolderUnchanged(recorded: FolderStamp | undefined, mtimeNs: bigint): boolean {
  return recorded !== undefined && recorded.mtimeNs === String(mtimeNs) && Number(mtimeNs / 1_000_000n) < recorded.statMs - SETTLED_MS;
}

/** Writes the snapshot durably (one write path for every store); `documents` oldest first. */
export async function writeDocumentsSnapshot(
  root: string,
  folders: ReadonlyMap<string, FolderStamp>,
  documents: readonly StoredDocument[],
  sync = true,
): Promise<void> {
  const file: SnapshotFile = {
    version: 2,
    folders: Object.fromEntries(folders),
    rows: documents.map((d) => [
      d.keyId,
      d.id,
      d.filename,
      d.size,
      d.createdAt,
      d.createdMs,
      d.expiresAt,
      d.expiresMs,
      d.source,
      d.batchId,
      d.planId,
      d.retention,
      d.state,
      d.expiredAt,
      d.pages ?? null,
    ]),
  };
  await writeFileDurably(path.join(root, FILE), JSON.stringify(file), { sync });
}
