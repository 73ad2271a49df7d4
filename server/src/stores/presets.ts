// Transform presets (services/pdf-tools/presets.ts): a key's saved sequence of PDF steps, with its own id.
// The files keep one JSON file per preset under DATA_DIR/presets/, written durably; all of them
// are read at start (presets are small and few per key) and served from memory.

import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { isId } from '../ids.ts';
import { isAbandonedTempFile, StoreReadError, syncFolder, writeFileDurably } from './durable-file.ts';

export interface PresetRecord {
  id: string;
  keyId: string;
  name: string;
  /** The steps as the API takes them (pdf/transform/steps.ts), validated before they are kept. */
  steps: unknown[];
  createdAt: string;
  updatedAt: string;
}

/** Presets, wherever they are kept: the files here or stores/pg/presets.ts. */
export interface PresetStore {
  /** Keeps a new preset or replaces one of the same id. */
  put(record: PresetRecord): Promise<void>;
  /** The preset of this key, or undefined (another key's is undefined too). */
  get(keyId: string, id: string): Promise<PresetRecord | undefined>;
  /** The key's presets, oldest first. */
  list(keyId: string): Promise<PresetRecord[]>;
  /** Deletes the key's preset; false when it had none of that id. */
  remove(keyId: string, id: string): Promise<boolean>;
}

export class FilePresetStore implements PresetStore {
  private readonly records = new Map<string, PresetRecord>();

  private constructor(private readonly folder: string) {}

  /** Opens DATA_DIR/presets (created when missing); a file that does not parse is reported by name. */
  static async open(dataDir: string): Promise<FilePresetStore> {
    const store = new FilePresetStore(path.join(dataDir, 'presets'));
    await mkdir(store.folder, { recursive: true });
    for (const name of await readdir(store.folder)) {
      const file = path.join(store.folder, name);
      if (isAbandonedTempFile(name, true)) {
        await rm(file, { force: true });
        continue;
      }
      if (!/^pre_[A-Za-z0-9]+\.json$/.test(name)) continue;
      let record: PresetRecord;
      try {
        record = JSON.parse(await readFile(file, 'utf8')) as PresetRecord;
      } catch (error) {
        throw new StoreReadError(file, (error as Error).message);
      }
      store.records.set(record.id, record);
    }
    return store;
  }

  async put(record: PresetRecord): Promise<void> {
    if (!isId(record.id, 'pre')) throw new Error(`not a preset id: ${record.id}`);
    await writeFileDurably(this.fileOf(record.id), JSON.stringify(record));
    this.records.set(record.id, record);
  }

  async get(keyId: string, id: string): Promise<PresetRecord | undefined> {
    const record = this.records.get(id);
    return record?.keyId === keyId ? record : undefined;
  }

  async list(keyId: string): Promise<PresetRecord[]> {
    return [...this.records.values()]
      .filter((record) => record.keyId === keyId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async remove(keyId: string, id: string): Promise<boolean> {
    if (!(await this.get(keyId, id))) return false;
    await rm(this.fileOf(id), { force: true });
    await syncFolder(this.folder);
    this.records.delete(id);
    return true;
  }

  private fileOf(id: string): string {
    return path.join(this.folder, `${id}.json`);
  }
}
