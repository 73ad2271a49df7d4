// Files uploaded to a template (images, fonts, CSS) that its HTML names by relative path. Behind
// a narrow async interface so a PostgreSQL twin can stand beside the files one. The files store
// keeps DATA_DIR/template-assets/<tpl id>/index.json (names, types, sizes) and one blob per asset
// named by a hash of its name, each written durably; changes to one template run one at a time.
// Knows no caps, HTTP or rendering.

import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { isAbandonedTempFile, syncFolder, writeFileDurably } from './durable-file.ts';
import { parseStoreJson } from './json-file.ts';
import { SerialQueue } from './serial-queue.ts';
import { isId } from '../ids.ts';

export interface AssetMeta {
  name: string;
  contentType: string;
  size: number;
  updatedAt: string;
}

export interface StoredAsset {
  meta: AssetMeta;
  bytes: Uint8Array;
}

export interface TemplateAssetsStore {
  /** A template's assets, by name. */
  list(templateId: string): Promise<AssetMeta[]>;
  /** One asset with its bytes; undefined when there is none by that name. */
  read(templateId: string, name: string): Promise<StoredAsset | undefined>;
  /**
   * Adds or replaces an asset; `admit` sees the template's other assets first (inside the same
   * serialized change, so two uploads cannot both pass a size cap) and throws to refuse.
   */
  put(templateId: string, asset: StoredAsset, admit?: (others: AssetMeta[]) => void): Promise<void>;
  /** Deletes one asset; false when there was none. */
  remove(templateId: string, name: string): Promise<boolean>;
  /** Deletes every asset of a template (the template is being deleted). */
  removeAll(templateId: string): Promise<void>;
}

const INDEX = 'index.json';

export class FileTemplateAssetsStore implements TemplateAssetsStore {
  private readonly serial = new SerialQueue();

  private constructor(private readonly root: string) {}

  // The two-line open every folder store has (template-versions.ts too): each names its own folder.
  /** Opens DATA_DIR/template-assets, creating it when missing. */
  static async open(dataDir: string): Promise<FileTemplateAssetsStore> {
    const root = path.join(dataDir, 'template-assets');
    await mkdir(root, { recursive: true, mode: 0o700 });
    return new FileTemplateAssetsStore(root);
  }

  async list(templateId: string): Promise<AssetMeta[]> {
    return this.readIndex(templateId);
  }

  async read(templateId: string, name: string): Promise<StoredAsset | undefined> {
    const meta = (await this.readIndex(templateId)).find((entry) => entry.name === name);
    if (!meta) return undefined;
    try {
      return { meta, bytes: await readFile(this.blobOf(templateId, name)) };
    } catch (error) {
      // Deleted between the index read and the blob read.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async put(templateId: string, asset: StoredAsset, admit?: (others: AssetMeta[]) => void): Promise<void> {
    const folder = this.folderOf(templateId);
    await this.serial.run(templateId, async () => {
      const others = (await this.readIndex(templateId)).filter((entry) => entry.name !== asset.meta.name);
      admit?.(others);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await syncFolder(this.root);
      await sweepTempFiles(folder);
      // The blob first: an index entry never points at bytes that are not on disk.
      await writeFileDurably(this.blobOf(templateId, asset.meta.name), asset.bytes);
      await this.writeIndex(
        templateId,
        [...others, asset.meta].sort((a, b) => a.name.localeCompare(b.name)),
      );
    });
  }

  async remove(templateId: string, name: string): Promise<boolean> {
    return this.serial.run(templateId, async () => {
      const index = await this.readIndex(templateId);
      const kept = index.filter((entry) => entry.name !== name);
      if (kept.length === index.length) return false;
      await this.writeIndex(templateId, kept);
      await rm(this.blobOf(templateId, name), { force: true });
      return true;
    });
  }

  async removeAll(templateId: string): Promise<void> {
    await this.serial.run(templateId, async () => {
      await rm(this.folderOf(templateId), { recursive: true, force: true });
      await syncFolder(this.root);
    });
  }

  private async readIndex(templateId: string): Promise<AssetMeta[]> {
    const file = path.join(this.folderOf(templateId), INDEX);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    // Damaged: named, left as it is, and only this template's calls fail.
    return parseStoreJson<AssetMeta[]>(file, text, (data) => (Array.isArray(data) ? undefined : 'not a list of assets'));
  }

  private writeIndex(templateId: string, index: AssetMeta[]): Promise<void> {
    return writeFileDurably(path.join(this.folderOf(templateId), INDEX), JSON.stringify(index));
  }

  private folderOf(templateId: string): string {
    if (!isId(templateId, 'tpl')) throw new Error(`unsafe template id ${templateId}`);
    return path.join(this.root, templateId);
  }

  /** Asset names may hold slashes and dots: the file is named by a hash of the name, never the name. */
  private blobOf(templateId: string, name: string): string {
    return path.join(this.folderOf(templateId), `${createHash('sha256').update(name).digest('hex').slice(0, 40)}.bin`);
  }
}

async function sweepTempFiles(folder: string): Promise<void> {
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    if (isAbandonedTempFile(name, false)) await rm(path.join(folder, name), { force: true });
  }
}
