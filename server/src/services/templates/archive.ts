// A template with its assets as one archive (.tar.gz): export for a key or the admin, import as
// a new template. The archive holds manifest.json (name, html, template_format, sample_data and the assets' names
// and types) and the assets' bytes under short member names. An import is checked whole (syntax,
// sizes, caps) before anything is stored, and a failure part-way removes what it had stored;
// the assets are in place before the first version's reference is rendered.

import { ApiError } from '../../errors.ts';
import { ArchiveError, packArchive, unpackArchive, type ArchiveFile } from './tar-archive.ts';
import { checkAsset, checkTotals, MAX_TEMPLATE_ASSET_BYTES, type TemplateAssetsService } from './assets.ts';
import type { TemplateFormat, TemplateRecord, TemplatesService } from './templates.ts';
import { TEMPLATE_FORMATS } from '../../stores/templates.ts';
import type { Owner } from '../accounts/owner.ts';
import { MAX_HTML_BYTES } from '../render/source-rules.ts';

export const ARCHIVE_FORMAT = 'quire-template/1';
/** An archive holds at most the HTML ceiling, the assets' cap and its manifest. */
export const MAX_ARCHIVE_BYTES = MAX_HTML_BYTES + MAX_TEMPLATE_ASSET_BYTES + 1024 * 1024;

interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  name: string;
  html: string;
  /** The template's format (its "format" on the wire; the manifest's own format names the archive's). Left out: html. */
  template_format?: TemplateFormat;
  sample_data: Record<string, unknown> | null;
  assets: { name: string; content_type: string; file: string }[];
}

export interface TemplateArchiveDeps {
  templates: Pick<TemplatesService, 'get' | 'create' | 'createForKey'>;
  assets: Pick<TemplateAssetsService, 'list' | 'get' | 'put'>;
}

export class TemplateArchiveService {
  constructor(private readonly deps: TemplateArchiveDeps) {}

  /** The template and its assets as one .tar.gz, with a file name for it. */
  async export(owner: Owner, id: string): Promise<{ filename: string; bytes: Uint8Array }> {
    const template = await this.deps.templates.get(owner, id);
    const metas = await this.deps.assets.list(owner, id);
    const files: ArchiveFile[] = [];
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      name: template.name,
      html: template.html,
      template_format: template.format,
      sample_data: template.sampleData,
      assets: [],
    };
    for (const [index, meta] of metas.entries()) {
      const asset = await this.deps.assets.get(owner, id, meta.name);
      const file = `assets/${index}`;
      manifest.assets.push({ name: meta.name, content_type: meta.contentType, file });
      files.push({ name: file, bytes: asset.bytes });
    }
    files.unshift({ name: 'manifest.json', bytes: new TextEncoder().encode(JSON.stringify(manifest, null, 2)) });
    const slug = template.name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || template.id;
    return { filename: `${slug}.quire-template.tar.gz`, bytes: packArchive(files) };
  }

  /** Creates a template for keyId from an archive (the admin's import: for a key in use, recorded as by the admin). */
  async import(keyId: string, archive: Uint8Array, asAdmin = false): Promise<TemplateRecord> {
    const { manifest, files } = readArchive(archive);
    const assets = manifest.assets.map((asset) => {
      const bytes = files.get(asset.file);
      if (!bytes) throw invalid(`manifest.json names ${asset.file}, which the archive does not hold`);
      checkAsset(asset.name, asset.content_type, bytes.byteLength);
      return { ...asset, bytes };
    });
    if (new Set(assets.map((asset) => asset.name)).size !== assets.length) throw invalid('manifest.json names an asset twice');
    checkTotals(assets.map((asset) => ({ size: asset.bytes.byteLength })));
    const input = { name: manifest.name, html: manifest.html, format: manifest.template_format, sampleData: manifest.sample_data };
    // The assets are stored before the first version is recorded, so its reference rendering has them.
    const storeAssets = async (id: string) => {
      for (const asset of assets) await this.deps.assets.put(keyId, id, asset.name, asset.content_type, asset.bytes);
    };
    return asAdmin ? this.deps.templates.createForKey(keyId, input, storeAssets) : this.deps.templates.create(keyId, input, keyId, storeAssets);
  }
}

function readArchive(archive: Uint8Array): { manifest: Manifest; files: Map<string, Uint8Array> } {
  let members: ArchiveFile[];
  try {
    members = unpackArchive(archive, MAX_ARCHIVE_BYTES);
  } catch (error) {
    if (!(error instanceof ArchiveError)) throw error;
    if (error.message.includes('more than')) throw new ApiError('payload_too_large', `The archive is too large: ${error.message}.`);
    throw invalid(error.message);
  }
  const files = new Map(members.map((member) => [member.name, member.bytes]));
  const text = files.get('manifest.json');
  if (!text) throw invalid('the archive has no manifest.json');
  let manifest: Manifest;
  try {
    manifest = JSON.parse(new TextDecoder().decode(text)) as Manifest;
  } catch {
    throw invalid('manifest.json is not valid JSON');
  }
  if (manifest?.format !== ARCHIVE_FORMAT) throw invalid(`manifest.json must have format ${ARCHIVE_FORMAT}`);
  if (typeof manifest.name !== 'string' || manifest.name.length < 1 || manifest.name.length > 200)
    throw invalid('manifest.json needs a name of 1 to 200 characters');
  if (typeof manifest.html !== 'string') throw invalid('manifest.json needs the html as a string');
  if (manifest.template_format !== undefined && !TEMPLATE_FORMATS.includes(manifest.template_format))
    throw invalid('manifest.json template_format must be html, markdown or docx');
  const data = manifest.sample_data;
  if (data !== null && (typeof data !== 'object' || Array.isArray(data))) throw invalid('manifest.json sample_data must be an object or null');
  if (
    !Array.isArray(manifest.assets) ||
    !manifest.assets.every((asset) => typeof asset?.name === 'string' && typeof asset.file === 'string' && typeof asset.content_type === 'string')
  ) {
    throw invalid('manifest.json assets must be a list of {name, content_type, file}');
  }
  return { manifest, files };
}

function invalid(reason: string): ApiError {
  return new ApiError('invalid_request', `The body is not a template archive (exported by GET /v1/templates/{id}/export): ${reason}.`);
}
