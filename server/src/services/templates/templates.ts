// Stored templates: create, list, fetch, replace and delete them for the key that owns them (or
// for the admin, across keys), expand one with data for a render, and the admin's preview that
// renders without storing or charging. A template is parsed when it is saved, so a syntax error
// is a 400 then, never at render time. A Markdown template is expanded first (its values escaped
// for Markdown, services/markdown/markdown.ts), then turned into HTML. Every save also appends an immutable version
// (stores/template-versions.ts); a render may name one. Assets are served to its renders.
// Turning template text into the document to render (parse, expand, Markdown) is
// expansion.ts: pure functions of the text, kept apart from storing and caching.

import { ApiError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import type { CompiledTemplate } from '../../render/template.ts';
import { DEFAULT_PDF_OPTIONS, type PdfOptions } from '../../render/pdf-options.ts';
import type { Renderer } from '../../render/renderer.ts';
import type { RenderSource } from '../../render/render-source.ts';
import type { TemplateVersion, TemplateVersionsStore } from '../../stores/template-versions.ts';
import type { TemplateAssetsStore } from '../../stores/template-assets.ts';
import type { Page } from '../../stores/newest-first-index.ts';
import { pageOrBadCursor } from '../accounts/paging.ts';
import type { KeysService } from '../accounts/keys.ts';
import { isSameRevision, type TemplateFormat, type TemplateMeta, type TemplateRecord, type TemplateStore } from '../../stores/templates.ts';
import type { MarkdownStyle } from '../../render/markdown-style-options.ts';
import { checkTemplateText, documentOf, expandTemplateText, parseTemplateText } from './expansion.ts';
import type { Owner } from '../accounts/owner.ts';
import type { OfficeConverter } from '../office/converter.ts';
import { wordTemplateElsewhere } from '../word/template.ts';
import { renderWordTemplate, type WordJob } from '../word/render.ts';

export type { TemplateFormat, TemplateMeta, TemplateRecord };

export interface TemplateInput {
  name: string;
  html: string;
  /** html when left out. */
  format?: TemplateFormat;
  sampleData?: Record<string, unknown> | null;
}

/** A template in a list: its metadata, current version number (none before its first save lands) and asset count. */
export type TemplateSummary = TemplateMeta & { version: number | undefined; assetCount: number };

export interface TemplatesServiceDeps {
  store: TemplateStore;
  renderer: Renderer;
  /** For the admin's creation for a key: the key must be in use (not revoked). */
  keys: Pick<KeysService, 'get'>;
  versions: TemplateVersionsStore;
  assets: TemplateAssetsStore;
  /** Told of each new version once it is durable (the visual check renders its reference). */
  onVersion?: (version: TemplateVersion) => void;
  /** Converts Word templates (LibreOffice); absent: they render as office_unavailable. */
  office?: OfficeConverter;
  now?: () => Date;
}

/**
 * Work done on a new template before its first version is recorded (an import stores its assets,
 * so the version's reference rendering sees them); a failure deletes the template again.
 */
export type Prepare = (templateId: string) => Promise<void>;

/** Who saved a version: the key id, or "admin". */
export const ADMIN_AUTHOR = 'admin';

/** Parsed templates kept for renders by id; an entry counts only while the store holds the very metadata it was parsed for. */
const COMPILED_CACHE_SIZE = 100;

export class TemplatesService {
  private readonly now: () => Date;
  private readonly compiled = new Map<string, { meta: TemplateMeta; template: CompiledTemplate }>();

  constructor(private readonly deps: TemplatesServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Saves a new template for a key; 400 naming line and column on a syntax error. */
  async create(keyId: string, input: TemplateInput, by: string = keyId, prepare?: Prepare): Promise<TemplateRecord> {
    const template = await checkTemplateText(input.format, input.html);
    const at = this.now().toISOString();
    const record: TemplateRecord = {
      id: newId('tpl'),
      keyId,
      name: input.name,
      html: input.html,
      format: input.format ?? 'html',
      sampleData: input.sampleData ?? null,
      createdAt: at,
      updatedAt: at,
    };
    await this.deps.store.insert(record);
    if (template) await this.remember(record.id, template);
    if (prepare) {
      try {
        await prepare(record.id);
      } catch (error) {
        await this.remove(keyId, record.id).catch(() => undefined);
        throw error;
      }
    }
    await this.recordVersion(record, by);
    return record;
  }

  /** The admin's create: as create, for a key named in the body. */
  async createForKey(keyId: string, input: TemplateInput, prepare?: Prepare): Promise<TemplateRecord> {
    try {
      await this.deps.keys.get(keyId);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'not_found')
        throw new ApiError('invalid_request', `key_id ${keyId} is not an API key in use (unknown or revoked).`);
      throw error;
    }
    return this.create(keyId, input, ADMIN_AUTHOR, prepare);
  }

  /** A page of template summaries (no HTML), newest first, each with its current version and asset count (the admin's list columns). */
  async list(owner: Owner, limit: number, cursor: string | undefined): Promise<Page<TemplateSummary>> {
    const page = await pageOrBadCursor(() => this.deps.store.page(owner, limit, cursor));
    const items = await Promise.all(
      page.items.map(async (meta) => {
        const [version, assets] = await Promise.all([this.deps.versions.latest(meta.id), this.deps.assets.list(meta.id)]);
        return { ...meta, version, assetCount: assets.length };
      }),
    );
    return { ...page, items };
  }

  /** One template, HTML included; 404 template_not_found for an unknown id or another key's. */
  async get(owner: Owner, id: string): Promise<TemplateRecord> {
    await this.visible(owner, id);
    return (await this.deps.store.read(id)) ?? notFound(id);
  }

  /** Replaces name, text, format and sample data (a PUT: what is not given is cleared, and the format is html). */
  async replace(owner: Owner, id: string, input: TemplateInput): Promise<TemplateRecord> {
    await this.visible(owner, id);
    const template = await checkTemplateText(input.format, input.html);
    const record = await this.deps.store.replace(id, {
      name: input.name,
      html: input.html,
      format: input.format ?? 'html',
      sampleData: input.sampleData ?? null,
      updatedAt: this.now().toISOString(),
    });
    if (!record) notFound(id);
    if (template) await this.remember(id, template);
    else this.compiled.delete(id);
    await this.recordVersion(record!, owner ?? ADMIN_AUTHOR);
    return record!;
  }

  /** Deletes a template; renders naming it answer 404 from then on. */
  async remove(owner: Owner, id: string): Promise<void> {
    await this.visible(owner, id);
    if (!(await this.deps.store.remove(id))) notFound(id);
    this.compiled.delete(id);
    await Promise.all([this.deps.versions.removeAll(id), this.deps.assets.removeAll(id)]);
  }

  /**
   * What a render of a key's template loads: its text expanded with data (the current one, or
   * the numbered version; Markdown then styled as `style` says) and its assets; 404 when it is
   * not the key's or has no such version.
   */
  async source(keyId: string, id: string, data: unknown, version?: number, style?: MarkdownStyle): Promise<RenderSource> {
    if (version === undefined) return { kind: 'html', html: await this.expand(keyId, id, data, style), assets: this.assetsOf(id) };
    await this.visible(keyId, id);
    const stored = await this.version(id, version);
    if (stored.format === 'docx') throw wordTemplateElsewhere(id);
    return {
      kind: 'html',
      html: await documentOf(id, stored.format, expandTemplateText(parseTemplateText(stored.html), data ?? {}, stored.format), style, data),
      assets: this.assetsOf(id),
    };
  }

  /** One version of a visible template; 404 template_not_found naming the version when there is none. */
  async version(id: string, number: number): Promise<TemplateVersion> {
    const stored = await this.deps.versions.read(id, number);
    if (!stored) throw new ApiError('template_not_found', `Template ${id} has no version ${number}.`);
    return stored;
  }

  /** Serves a template's assets to its render by the relative name the HTML uses. */
  assetsOf(id: string): NonNullable<Extract<RenderSource, { kind: 'html' }>['assets']> {
    return async (name) => {
      const asset = await this.deps.assets.read(id, name);
      return asset && { contentType: asset.meta.contentType, body: asset.bytes };
    };
  }

  /** The HTML to render for a key's template and data: 404 when it is not the key's, 413 over the 5 MB ceiling. */
  async expand(keyId: string, id: string, data: unknown, style?: MarkdownStyle): Promise<string> {
    const meta = await this.visible(keyId, id);
    if (meta.format === 'docx') throw wordTemplateElsewhere(id);
    const cached = this.compiled.get(id);
    if (cached && isSameRevision(cached.meta, meta))
      return documentOf(id, meta.format, expandTemplateText(cached.template, data ?? {}, meta.format), style, data);
    const record = (await this.deps.store.read(id)) ?? notFound(id);
    const template = parseTemplateText(record.html);
    // Kept against the metadata seen before the read: if a replace landed meanwhile, the next render parses again.
    await this.remember(id, template, meta);
    return documentOf(id, record.format, expandTemplateText(template, data ?? {}, record.format), style, data);
  }

  /** Renders template text with data to PDF bytes: nothing is stored and nothing is charged. */
  async preview(
    html: string,
    data: Record<string, unknown> | undefined,
    options: PdfOptions | undefined,
    templateId?: string,
    format: TemplateFormat = 'html',
  ): Promise<Uint8Array> {
    // With a template id the preview sees that template's assets, as its renders do.
    if (templateId !== undefined) await this.visible(undefined, templateId);
    if (format === 'docx') return this.wordPdf({ docx: html, name: 'preview', data: data ?? {}, options, priority: 'interactive' });
    return this.deps.renderer.render({
      source: await this.previewSource(templateId, html, data ?? {}, format, options),
      options: options ?? DEFAULT_PDF_OPTIONS,
      data,
    });
  }

  /** Template text (not necessarily saved) expanded with data, with the template's assets when one is named. */
  async previewSource(
    templateId: string | undefined,
    html: string,
    data: unknown,
    format: TemplateFormat = 'html',
    style?: MarkdownStyle,
  ): Promise<RenderSource> {
    return {
      kind: 'html',
      html: await documentOf(templateId ?? 'preview', format, expandTemplateText(parseTemplateText(html), data, format), style, data),
      assets: templateId === undefined ? undefined : this.assetsOf(templateId),
    };
  }

  /**
   * The stored Word template a render of template_id (and template_version) fills, or undefined
   * when the template is HTML or Markdown; 404 when it is not the key's or has no such version.
   */
  async wordTemplate(keyId: string, id: string, version?: number): Promise<{ docx: string; name: string } | undefined> {
    const meta = await this.visible(keyId, id);
    if (version !== undefined) {
      const stored = await this.version(id, version);
      return stored.format === 'docx' ? { docx: stored.html, name: stored.name } : undefined;
    }
    if (meta.format !== 'docx') return undefined;
    const record = (await this.deps.store.read(id)) ?? notFound(id);
    return { docx: record.html, name: record.name };
  }

  /** A Word template filled and converted on the LibreOffice pool (office_unavailable without one). */
  wordPdf(job: WordJob): Promise<Uint8Array> {
    if (!this.deps.office) throw new ApiError('office_unavailable', 'This server converts no office files, so it cannot render Word templates.');
    return renderWordTemplate(this.deps.office, job);
  }

  /** A template's metadata when the owner may see it (undefined: the admin, every key's); else 404 template_not_found. */
  async visible(owner: Owner, id: string): Promise<TemplateMeta> {
    const meta = await this.deps.store.meta(id);
    if (!meta || (owner !== undefined && meta.keyId !== owner)) return notFound(id);
    return meta;
  }

  private async recordVersion(record: TemplateRecord, by: string): Promise<void> {
    const version = await this.deps.versions.append({
      templateId: record.id,
      name: record.name,
      html: record.html,
      format: record.format,
      sampleData: record.sampleData,
      createdAt: record.updatedAt,
      createdBy: by,
    });
    this.deps.onVersion?.(version);
  }

  private async remember(id: string, template: CompiledTemplate, known?: TemplateMeta): Promise<void> {
    const meta = known ?? (await this.deps.store.meta(id));
    if (!meta) return;
    this.compiled.delete(id);
    this.compiled.set(id, { meta, template });
    // A Map iterates in insertion order: the first key is the one parsed longest ago.
    if (this.compiled.size > COMPILED_CACHE_SIZE) this.compiled.delete(this.compiled.keys().next().value!);
  }
}

function notFound(id: string): never {
  throw new ApiError('template_not_found', `Template ${id} was not found.`);
}
