// Start-up repair of the file documents store (documents.ts): reading one key folder's sidecars
// and removing what interrupted writes left behind (temp files, PDFs without a sidecar, sidecars
// without a PDF, PDFs of tombstones). Apart from the store's steady-state reads and writes because
// it runs once, before anything is served, and `quire doctor` reads sidecars with it too.

import { readFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { documentSourceOf, type DocumentRecord } from './document-record.ts';
import { isAbandonedTempFile, StoreReadError, syncFolder } from './durable-file.ts';

/** What open() found and repaired. */
export interface ReconcileReport {
  documents: number;
  tombstones: number;
  /** Key folders read file by file, and key folders taken from the index snapshot. */
  scannedFolders: number;
  snapshotFolders: number;
  removedTempFiles: number;
  removedOrphanPdfs: number;
  removedOrphanSidecars: number;
}

/** Reads one key folder: its sidecars; removes temp files, PDFs without a sidecar, sidecars without a PDF, PDFs of tombstones. */
export async function scanKeyFolder(folder: string, report: ReconcileReport, sync: boolean): Promise<DocumentRecord[]> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const pdfs = new Set<string>();
  const sidecars: string[] = [];
  const records: DocumentRecord[] = [];
  for (const name of names) {
    if (isAbandonedTempFile(name, true)) {
      await rm(path.join(folder, name), { force: true });
      report.removedTempFiles++;
    } else if (name.endsWith('.pdf')) pdfs.add(name.slice(0, -4));
    else if (name.endsWith('.json')) sidecars.push(name.slice(0, -5));
  }
  for (const id of sidecars) {
    const file = path.join(folder, `${id}.json`);
    const record = readDocumentSidecar(file);
    // Never written by us (renames are atomic): start-up stops, naming it, and leaves it as it is.
    if (record instanceof Error) throw new StoreReadError(file, record.message);
    const hasPdf = pdfs.delete(id);
    if (record.state === 'expired') {
      if (hasPdf) await rm(path.join(folder, `${id}.pdf`), { force: true });
      records.push(record);
    } else if (!hasPdf) {
      await rm(file, { force: true });
      report.removedOrphanSidecars++;
    } else {
      records.push(record);
    }
  }
  // What is left never got its sidecar: a render that did not finish storing.
  for (const id of pdfs) {
    await rm(path.join(folder, `${id}.pdf`), { force: true });
    report.removedOrphanPdfs++;
  }
  if (report.removedTempFiles + report.removedOrphanPdfs + report.removedOrphanSidecars > 0 && sync) await syncFolder(folder);
  return records;
}

/**
 * Reads one sidecar at start-up. Synchronous on purpose: nothing is served yet, and 100,000 small
 * reads take a sixth of the time without a thread-pool round trip per open, read and close.
 */
export function readDocumentSidecar(file: string): DocumentRecord | Error {
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as DocumentRecord;
    if (
      typeof record?.id !== 'string' ||
      typeof record.keyId !== 'string' ||
      Number.isNaN(Date.parse(record.createdAt)) ||
      Number.isNaN(Date.parse(record.expiresAt))
    ) {
      return new Error('not a document sidecar');
    }
    if (`${record.keyId}/${record.id}.json` !== file.split(path.sep).slice(-2).join('/')) return new Error('its id or key does not match its file name');
    return { ...record, source: documentSourceOf(record.source) };
  } catch (error) {
    return error as Error;
  }
}
