// Immutable versions of templates: every save appends one (number from 1), with its reference
// rendering (the PDF of its sample data, for the visual check) kept beside it. Behind a narrow
// async interface so a PostgreSQL twin can stand beside the files one. The files store keeps
// DATA_DIR/template-versions/<tpl id>/<n>.json and <n>.pdf, each written durably, and the
// versions' metadata in memory once a template's folder has been read. Knows no HTTP or rendering.

import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { isAbandonedTempFile, syncFolder, writeFileDurably } from './durable-file.ts';
import { parseStoreJson } from './json-file.ts';
import { InvalidCursorError, type Page } from './newest-first-index.ts';
import { SerialQueue } from './serial-queue.ts';
import { isId } from '../ids.ts';
import { withFormat, type TemplateFormat } from './templates.ts';

export interface TemplateVersion {
  templateId: string;
  number: number;
  name: string;
  html: string;
  format: TemplateFormat;
  sampleData: Record<string, unknown> | null;
  createdAt: string;
  /** Who saved it: the key id, or "admin". */
  createdBy: string;
}

export type VersionMeta = Omit<TemplateVersion, 'html' | 'sampleData'>;

export interface TemplateVersionsStore {
  /** Appends the next version (numbered after the last one) and returns it once it is durable. */
  append(version: Omit<TemplateVersion, 'number'>): Promise<TemplateVersion>;
  /** Versions of a template, newest first, behind an opaque cursor (InvalidCursorError for a foreign one). */
  page(templateId: string, limit: number, cursor: string | undefined): Promise<Page<VersionMeta>>;
  read(templateId: string, number: number): Promise<TemplateVersion | undefined>;
  /** The highest version number, or undefined when the template has none. */
  latest(templateId: string): Promise<number | undefined>;
  /** Stores a version's reference rendering (and ends its "on its way" mark). */
  saveReference(templateId: string, number: number, pdf: Uint8Array): Promise<void>;
  readReference(templateId: string, number: number): Promise<Uint8Array | undefined>;
  /**
   * Whether the instance that saved this version is still making its reference (marked at append,
   * a lease of REFERENCE_LEASE_SECONDS that its maker renews). Files: never, since one process knows its own renders.
   */
  isReferenceComing(templateId: string, number: number): Promise<boolean>;
  /** The maker of a reference not yet stored is still at it (another try, a long wait for a slot): its lease starts again. */
  renewReference(templateId: string, number: number): Promise<void>;
  /** The reference render failed: nobody is making it any more. */
  abandonReference(templateId: string, number: number): Promise<void>;
  /** Deletes every version of a template (the template is being deleted). */
  removeAll(templateId: string): Promise<void>;
}

/**
 * How long other instances wait for a reference without word from the instance making it: its maker
 * renews the lease every third of it (REFERENCE_RENEW_MS), however long the render takes under
 * load, so only a maker that died (or stalled that long) lets a check make its own reference.
 */
export const REFERENCE_LEASE_SECONDS = 30;
export const REFERENCE_RENEW_MS = (REFERENCE_LEASE_SECONDS * 1000) / 3;

export class FileTemplateVersionsStore implements TemplateVersionsStore {
  private readonly metas = new Map<string, Promise<VersionMeta[]>>();
  private readonly serial = new SerialQueue();

  private constructor(private readonly root: string) {}

  /** Opens DATA_DIR/template-versions, creating it when missing. */
  static async open(dataDir: string): Promise<FileTemplateVersionsStore> {
    const root = path.join(dataDir, 'template-versions');
    await mkdir(root, { recursive: true, mode: 0o700 });
    return new FileTemplateVersionsStore(root);
  }

  append(input: Omit<TemplateVersion, 'number'>): Promise<TemplateVersion> {
    return this.serial.run(input.templateId, async () => {
      const metas = await this.loaded(input.templateId);
      const version: TemplateVersion = { ...input, number: (metas.at(-1)?.number ?? 0) + 1 };
      const folder = this.folderOf(input.templateId);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await syncFolder(this.root);
      await writeFileDurably(path.join(folder, `${version.number}.json`), JSON.stringify(version));
      metas.push(metaOf(version));
      return version;
    });
  }

  async page(templateId: string, limit: number, cursor: string | undefined): Promise<Page<VersionMeta>> {
    const before = cursor === undefined ? Infinity : decodeVersionCursor(cursor);
    const older = (await this.loaded(templateId)).filter((meta) => meta.number < before).reverse();
    const items = older.slice(0, limit);
    return { items, nextCursor: older.length > limit ? encodeVersionCursor(items.at(-1)!.number) : null };
  }

  async read(templateId: string, number: number): Promise<TemplateVersion | undefined> {
    const file = path.join(this.folderOf(templateId), `${number}.json`);
    const version = await readOptional(file, (text) => parseStoreJson<TemplateVersion>(file, text.toString('utf8'), isVersionRecord));
    return version && withFormat(version);
  }

  async latest(templateId: string): Promise<number | undefined> {
    return (await this.loaded(templateId)).at(-1)?.number;
  }

  async saveReference(templateId: string, number: number, pdf: Uint8Array): Promise<void> {
    await this.serial.run(templateId, async () => {
      // A reference written for a template deleted meanwhile would leave an orphan folder.
      if (!(await this.loaded(templateId)).some((meta) => meta.number === number)) return;
      await writeFileDurably(path.join(this.folderOf(templateId), `${number}.pdf`), pdf);
    });
  }

  async readReference(templateId: string, number: number): Promise<Uint8Array | undefined> {
    return readOptional(path.join(this.folderOf(templateId), `${number}.pdf`), (bytes) => new Uint8Array(bytes));
  }

  async isReferenceComing(): Promise<boolean> {
    return false;
  }

  async renewReference(): Promise<void> {}

  async abandonReference(): Promise<void> {}

  async removeAll(templateId: string): Promise<void> {
    await this.serial.run(templateId, async () => {
      this.metas.set(templateId, Promise.resolve([]));
      await rm(this.folderOf(templateId), { recursive: true, force: true });
      await syncFolder(this.root);
      this.metas.delete(templateId);
    });
  }

  /** The template's versions, oldest first, read from its folder once and then kept. */
  private loaded(templateId: string): Promise<VersionMeta[]> {
    let metas = this.metas.get(templateId);
    if (!metas) {
      metas = this.readFolder(templateId);
      this.metas.set(templateId, metas);
      metas.catch(() => this.metas.delete(templateId));
    }
    return metas;
  }

  private async readFolder(templateId: string): Promise<VersionMeta[]> {
    const folder = this.folderOf(templateId);
    const metas: VersionMeta[] = [];
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      if (isAbandonedTempFile(name, false)) await rm(path.join(folder, name), { force: true });
      if (!/^\d+\.json$/.test(name)) continue;
      const file = path.join(folder, name);
      metas.push(metaOf(withFormat(parseStoreJson<TemplateVersion>(file, await readFile(file, 'utf8'), isVersionRecord))));
    }
    return metas.sort((a, b) => a.number - b.number);
  }

  private folderOf(templateId: string): string {
    if (!isId(templateId, 'tpl')) throw new Error(`unsafe template id ${templateId}`);
    return path.join(this.root, templateId);
  }
}

/** What is wrong with a version file's content (damaged files are named, never papered over). */
function isVersionRecord(data: unknown): string | undefined {
  const version = data as TemplateVersion;
  return typeof version === 'object' && version !== null && Number.isInteger(version.number) && typeof version.templateId === 'string'
    ? undefined
    : 'not a template version';
}

// Like templates.ts's metaOf in shape, but a version's metadata (template id and number, no key).
function metaOf(version: TemplateVersion): VersionMeta {
  return {
    templateId: version.templateId,
    number: version.number,
    name: version.name,
    format: version.format,
    createdAt: version.createdAt,
    createdBy: version.createdBy,
  };
}

async function readOptional<T>(file: string, parse: (bytes: Buffer) => T): Promise<T | undefined> {
  try {
    return parse(await readFile(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The cursor of the page after this version number (the PostgreSQL store uses the same form). */
export function encodeVersionCursor(number: number): string {
  return Buffer.from(`v${number}`).toString('base64url');
}

/** The version number a cursor carries; InvalidCursorError for a foreign one. */
export function decodeVersionCursor(cursor: string): number {
  const match = /^v(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new InvalidCursorError();
  return Number(match[1]);
}
