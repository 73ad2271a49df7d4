// Assets of a template (images, fonts, CSS) for the key that owns it or the admin: upload by
// name with a Content-Type, list, fetch, delete, within a cap per asset and per template.
// Renders of the template are served them by services/templates/templates.ts; this module only manages them.

import { ApiError } from '../../errors.ts';
import type { AssetMeta, StoredAsset, TemplateAssetsStore } from '../../stores/template-assets.ts';
import type { TemplatesService } from './templates.ts';
import type { Owner } from '../accounts/owner.ts';

export type { AssetMeta, StoredAsset };

/** Caps (docs/api.md#assets): one asset, and all of a template's together; beyond: 413. */
export const MAX_ASSET_BYTES = 5 * 1024 * 1024;
export const MAX_TEMPLATE_ASSET_BYTES = 20 * 1024 * 1024;
export const MAX_ASSETS_PER_TEMPLATE = 200;

/** Relative names as HTML writes them: folders by "/", no "..", no leading dot or slash. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;
const CONTENT_TYPE = /^[a-z]+\/[a-z0-9.+-]+(\s*;.*)?$/i;

export interface TemplateAssetsDeps {
  store: TemplateAssetsStore;
  templates: Pick<TemplatesService, 'visible'>;
  now?: () => Date;
}

export class TemplateAssetsService {
  private readonly now: () => Date;

  constructor(private readonly deps: TemplateAssetsDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** The template's assets by name; 404 when the template is not the owner's. */
  async list(owner: Owner, templateId: string): Promise<AssetMeta[]> {
    await this.deps.templates.visible(owner, templateId);
    return this.deps.store.list(templateId);
  }

  /** One asset with its bytes; 404 not_found when there is none by that name. */
  async get(owner: Owner, templateId: string, name: string): Promise<StoredAsset> {
    await this.deps.templates.visible(owner, templateId);
    return (await this.deps.store.read(templateId, checkName(name))) ?? assetNotFound(templateId, name);
  }

  /** Adds or replaces an asset; 413 past a cap, 400 for a bad name or a missing Content-Type. */
  async put(owner: Owner, templateId: string, name: string, contentType: string | undefined, bytes: Uint8Array): Promise<AssetMeta> {
    await this.deps.templates.visible(owner, templateId);
    checkAsset(name, contentType, bytes.byteLength);
    const meta: AssetMeta = { name, contentType: contentType!, size: bytes.byteLength, updatedAt: this.now().toISOString() };
    await this.deps.store.put(templateId, { meta, bytes }, (others) => checkTotals([...others, meta]));
    return meta;
  }

  /** Deletes an asset; 404 not_found when there is none by that name. */
  async remove(owner: Owner, templateId: string, name: string): Promise<void> {
    await this.deps.templates.visible(owner, templateId);
    if (!(await this.deps.store.remove(templateId, checkName(name)))) assetNotFound(templateId, name);
  }
}

/** The 413 for one asset over its cap (also used by the HTTP layer before reading the body). */
export function tooLarge(): ApiError {
  return new ApiError('payload_too_large', `An asset may be at most ${MAX_ASSET_BYTES / 1024 / 1024} MB.`);
}

/** Refuses a bad name (400), a missing or malformed Content-Type (400) or an asset over its cap (413). */
export function checkAsset(name: string, contentType: string | undefined, size: number): void {
  checkName(name);
  if (!contentType || !CONTENT_TYPE.test(contentType)) {
    throw new ApiError('invalid_request', `Send the asset’s bytes with its Content-Type (image/png, font/woff2, text/css, ...); ${name} has none.`);
  }
  if (size > MAX_ASSET_BYTES) throw tooLarge();
}

/** Refuses (413) a set of assets over the per-template count or total size. */
export function checkTotals(assets: readonly Pick<AssetMeta, 'size'>[]): void {
  if (assets.length > MAX_ASSETS_PER_TEMPLATE)
    throw new ApiError('payload_too_large', `A template may have at most ${MAX_ASSETS_PER_TEMPLATE} assets; delete one first.`);
  const total = assets.reduce((sum, asset) => sum + asset.size, 0);
  if (total > MAX_TEMPLATE_ASSET_BYTES) {
    throw new ApiError(
      'payload_too_large',
      `A template’s assets may take ${MAX_TEMPLATE_ASSET_BYTES / 1024 / 1024} MB together; these would make ${(total / 1024 / 1024).toFixed(1)} MB.`,
    );
  }
}

function checkName(name: string): string {
  if (name.length > 200 || !ASSET_NAME.test(name) || name.split('/').includes('..')) {
    throw new ApiError(
      'invalid_request',
      'The asset name must be a relative path of letters, digits, ".", "_" and "-", folders separated by "/" (for example fonts/Inter.woff2), at most 200 characters.',
    );
  }
  return name;
}

function assetNotFound(templateId: string, name: string): never {
  throw new ApiError('not_found', `Template ${templateId} has no asset named ${name}.`);
}
