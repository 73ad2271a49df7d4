// Stored templates: one JSON file per template, DATA_DIR/templates/<key id>/<tpl id>.json, each
// replaced atomically and durably, so saving one template never rewrites the others (a
// template may be megabytes). An in-memory index of the metadata (not the HTML) serves lists and
// scoping; the HTML is read from the file when a template is fetched or rendered. Changes to one
// template run one at a time. Knows no parsing, keys or HTTP.

import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { isAbandonedTempFile, StoreReadError, syncFolder, writeFileDurably } from './durable-file.ts';
import { indexOfKey, NewestFirstIndex, type Page } from './newest-first-index.ts';
import { SerialQueue } from './serial-queue.ts';
import { isId } from '../ids.ts';

/**
 * How a template's text is read: HTML, Markdown turned into HTML after its placeholders are filled,
 * or a Word file (docx) kept as base64 in the same field, filled and converted by LibreOffice.
 */
export const TEMPLATE_FORMATS = ['html', 'markdown', 'docx'] as const;
export type TemplateFormat = (typeof TEMPLATE_FORMATS)[number];

export interface TemplateRecord {
  id: string;
  keyId: string;
  name: string;
  /** The template's text (HTML or Markdown, as format says), placeholders included; a docx's bytes base64. */
  html: string;
  format: TemplateFormat;
  sampleData: Record<string, unknown> | null;
  createdAt: string;
  updatedAt: string;
}

export type TemplateMeta = Omit<TemplateRecord, 'html' | 'sampleData'> & {
  readonly createdMs: number;
  /**
   * Changes with every save, where the store cannot hand out the same metadata object until the
   * next save (PostgreSQL: a sequence number). The files store leaves it out: its objects are stable.
   */
  readonly revision?: string;
};

/** Whether two metadata of a template describe the same saved version (a parsed template may be reused). */
export function isSameRevision(a: TemplateMeta, b: TemplateMeta): boolean {
  return a === b || (a.revision !== undefined && a.id === b.id && a.revision === b.revision);
}

/** What a save of an existing template replaces. */
export type TemplateChanges = Pick<TemplateRecord, 'name' | 'html' | 'format' | 'sampleData' | 'updatedAt'>;

/**
 * Stored templates, wherever they are kept: TemplatesStore (files) or stores/pg/templates.ts.
 * Metadata (no HTML) serves lists and scoping; read() brings the HTML.
 */
export interface TemplateStore {
  /** Metadata of a template by id, any key. */
  meta(id: string): Promise<TemplateMeta | undefined>;
  /** The whole record, HTML included; undefined when there is no such template. */
  read(id: string): Promise<TemplateRecord | undefined>;
  /** A page of templates, newest first: one key's, or every key's when keyId is undefined. */
  page(keyId: string | undefined, limit: number, cursor: string | undefined): Promise<Page<TemplateMeta>>;
  /** Saves a new template; resolves once it is durable. */
  insert(record: TemplateRecord): Promise<void>;
  /** Replaces a template's name, text, format and sample data; undefined when there is no such template. */
  replace(id: string, changes: TemplateChanges): Promise<TemplateRecord | undefined>;
  /** Deletes a template for good; false when there was none. */
  remove(id: string): Promise<boolean>;
}

export class TemplatesStore implements TemplateStore {
  private readonly all = new NewestFirstIndex<TemplateMeta>();
  private readonly byKey = new Map<string, NewestFirstIndex<TemplateMeta>>();
  private readonly byId = new Map<string, TemplateMeta>();
  /** Changes to one template run one after another, so a replace cannot land after a delete. */
  private readonly queue = new SerialQueue();

  private constructor(readonly root: string) {}

  /** Opens DATA_DIR/templates, removing temporary files of interrupted writes, and indexes every template. */
  static async open(dataDir: string, _warn: (details: Record<string, unknown>, message: string) => void = () => undefined): Promise<TemplatesStore> {
    const store = new TemplatesStore(path.join(dataDir, 'templates'));
    await mkdir(store.root, { recursive: true });
    const found: TemplateMeta[] = [];
    for (const keyId of await readdir(store.root)) {
      if (!isId(keyId)) continue;
      const folder = path.join(store.root, keyId);
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        const file = path.join(folder, name);
        if (isAbandonedTempFile(name, true)) await rm(file, { force: true });
        if (!name.endsWith('.json')) continue;
        const record = await readTemplateFile(file);
        // Never written by us (renames are atomic): start-up stops, naming it, and leaves it as it is.
        if (record instanceof Error) throw new StoreReadError(file, record.message);
        found.push(metaOf(record));
      }
    }
    store.load(found);
    return store;
  }

  /** Metadata of a template by id, any key. */
  async meta(id: string): Promise<TemplateMeta | undefined> {
    return this.byId.get(id);
  }

  /** The whole record, HTML included; undefined when there is no such template. */
  async read(id: string): Promise<TemplateRecord | undefined> {
    const meta = this.byId.get(id);
    if (!meta) return undefined;
    try {
      return withFormat(JSON.parse(await readFile(this.fileOf(meta), 'utf8')) as TemplateRecord);
    } catch (error) {
      // Deleted between the lookup and the read.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** A page of templates, newest first: one key's, or every key's when keyId is undefined. */
  async page(keyId: string | undefined, limit: number, cursor: string | undefined): Promise<Page<TemplateMeta>> {
    // A key without templates still checks the cursor, through an empty index.
    const index = keyId === undefined ? this.all : (this.byKey.get(keyId) ?? new NewestFirstIndex<TemplateMeta>());
    return index.page(limit, cursor);
  }

  /** Saves a new template; resolves once it is on disk. */
  async insert(record: TemplateRecord): Promise<void> {
    if (!isId(record.id) || !isId(record.keyId)) throw new Error(`unsafe template file name ${record.keyId}/${record.id}`);
    await this.queue.run(record.id, async () => {
      const folder = path.join(this.root, record.keyId);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await syncFolder(this.root);
      await writeFileDurably(this.fileOf(record), JSON.stringify(record));
      this.index(metaOf(record));
    });
  }

  /** Replaces a template's name, text, format and sample data; undefined when there is no such template. */
  async replace(id: string, changes: TemplateChanges): Promise<TemplateRecord | undefined> {
    return this.queue.run(id, async () => {
      const current = this.byId.get(id);
      if (!current) return undefined;
      const record: TemplateRecord = { id, keyId: current.keyId, createdAt: current.createdAt, ...changes };
      await writeFileDurably(this.fileOf(record), JSON.stringify(record));
      const meta = metaOf(record);
      this.byId.set(id, meta);
      // Same position (creation time and id), new name: swap the entry in both indexes.
      this.all.remove(current);
      this.all.insert(meta);
      this.byKey.get(meta.keyId)?.remove(current);
      this.byKey.get(meta.keyId)?.insert(meta);
      return record;
    });
  }

  /** Deletes a template for good; false when there was none. */
  async remove(id: string): Promise<boolean> {
    return this.queue.run(id, async () => {
      const meta = this.byId.get(id);
      if (!meta) return false;
      this.byId.delete(id);
      this.all.remove(meta);
      this.byKey.get(meta.keyId)?.remove(meta);
      await rm(this.fileOf(meta), { force: true });
      await syncFolder(path.dirname(this.fileOf(meta)));
      return true;
    });
  }

  /** Builds the indexes from what start-up found: one sort each, not one insertion per template. */
  private load(found: TemplateMeta[]): void {
    this.all.load(found);
    const byKey = new Map<string, TemplateMeta[]>();
    for (const meta of found) {
      this.byId.set(meta.id, meta);
      const list = byKey.get(meta.keyId);
      if (list) list.push(meta);
      else byKey.set(meta.keyId, [meta]);
    }
    for (const [keyId, metas] of byKey) {
      const index = new NewestFirstIndex<TemplateMeta>();
      index.load(metas);
      this.byKey.set(keyId, index);
    }
  }

  private index(meta: TemplateMeta): void {
    this.byId.set(meta.id, meta);
    this.all.insert(meta);
    indexOfKey(this.byKey, meta.keyId).insert(meta);
  }

  private fileOf(template: Pick<TemplateRecord, 'id' | 'keyId'>): string {
    return path.join(this.root, template.keyId, `${template.id}.json`);
  }
}

/** Reads and checks one template file (start-up and the doctor); an Error says what is wrong. */
export async function readTemplateFile(file: string): Promise<TemplateRecord | Error> {
  try {
    const record = JSON.parse(await readFile(file, 'utf8')) as TemplateRecord;
    if (typeof record?.html !== 'string' || typeof record.name !== 'string' || Number.isNaN(Date.parse(record.createdAt)))
      return new Error('not a template file');
    if (`${record.keyId}/${record.id}.json` !== file.split(path.sep).slice(-2).join('/')) return new Error('its id or key does not match its file name');
    if (record.format !== undefined && !TEMPLATE_FORMATS.includes(record.format))
      return new Error(`its format ${JSON.stringify(record.format)} is not html, markdown or docx`);
    return withFormat(record);
  } catch (error) {
    return error as Error;
  }
}

/** Files written before templates had a format hold HTML (template and version files alike). */
export function withFormat<T extends { format?: TemplateFormat }>(record: T): T {
  return record.format === undefined ? { ...record, format: 'html' } : record;
}

function metaOf(record: TemplateRecord): TemplateMeta {
  return {
    id: record.id,
    keyId: record.keyId,
    name: record.name,
    format: record.format,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    createdMs: Date.parse(record.createdAt),
  };
}
