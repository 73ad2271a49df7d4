// docs/api.md#documents-templates-and-batches-of-every-key: templates of every key, and the uncharged preview.

import { call, callJson, callPdf, filenameOf, type PdfResponse } from './client.ts';
import type {
  CheckResult,
  Page,
  PdfOptions,
  Template,
  TemplateAsset,
  TemplateFormat,
  TemplateSummary,
  TemplateVersion,
  TemplateVersionSummary,
  VersionDiff,
} from './types.ts';

export function listTemplates(query: { key_id?: string; cursor?: string; limit?: number }, signal?: AbortSignal): Promise<Page<TemplateSummary>> {
  return callJson<Page<TemplateSummary>>('GET', '/admin/v1/templates', { admin: true, query, signal });
}

export function getTemplate(id: string, signal?: AbortSignal): Promise<Template> {
  return callJson<Template>('GET', `/admin/v1/templates/${encodeURIComponent(id)}`, { admin: true, signal });
}

export function createTemplate(input: {
  key_id: string;
  name: string;
  html: string;
  format?: TemplateFormat;
  sample_data?: Record<string, unknown> | null;
}): Promise<Template> {
  return callJson<Template>('POST', '/admin/v1/templates', { admin: true, body: input });
}

export function updateTemplate(
  id: string,
  input: { name: string; html?: string; file?: string; format: TemplateFormat; sample_data: Record<string, unknown> | null },
): Promise<Template> {
  return callJson<Template>('PUT', `/admin/v1/templates/${encodeURIComponent(id)}`, { admin: true, body: input });
}

export async function deleteTemplate(id: string): Promise<void> {
  await call('DELETE', `/admin/v1/templates/${encodeURIComponent(id)}`, { admin: true });
}

export function previewTemplate(
  input: { html: string; format?: TemplateFormat; data?: Record<string, unknown>; options?: PdfOptions; template_id?: string },
  signal?: AbortSignal,
): Promise<PdfResponse> {
  return callPdf('POST', '/admin/v1/templates/preview', { admin: true, body: input, signal });
}

const base = (id: string) => `/admin/v1/templates/${encodeURIComponent(id)}`;

export function listAssets(id: string, signal?: AbortSignal): Promise<{ data: TemplateAsset[] }> {
  return callJson('GET', `${base(id)}/assets`, { admin: true, signal });
}

/** Uploads a file as an asset; its name may hold folders (fonts/Inter.woff2). */
export function uploadAsset(id: string, name: string, file: Blob): Promise<TemplateAsset> {
  return callJson('PUT', `${base(id)}/assets/${name.split('/').map(encodeURIComponent).join('/')}`, { admin: true, file });
}

export async function deleteAsset(id: string, name: string): Promise<void> {
  await call('DELETE', `${base(id)}/assets/${name.split('/').map(encodeURIComponent).join('/')}`, { admin: true });
}

export function listVersions(id: string, query: { cursor?: string; limit?: number }, signal?: AbortSignal): Promise<Page<TemplateVersionSummary>> {
  return callJson('GET', `${base(id)}/versions`, { admin: true, query, signal });
}

export function getVersion(id: string, version: number, signal?: AbortSignal): Promise<TemplateVersion> {
  return callJson('GET', `${base(id)}/versions/${version}`, { admin: true, signal });
}

export function diffVersion(id: string, version: number, signal?: AbortSignal): Promise<VersionDiff> {
  return callJson('GET', `${base(id)}/versions/${version}/diff`, { admin: true, signal });
}

export function restoreVersion(id: string, version: number): Promise<Template> {
  return callJson('POST', `${base(id)}/versions/${version}/restore`, { admin: true });
}

export function versionReference(id: string, version: number, signal?: AbortSignal): Promise<PdfResponse> {
  return callPdf('GET', `${base(id)}/versions/${version}/reference`, { admin: true, signal });
}

export function checkTemplate(id: string, version?: number): Promise<CheckResult> {
  return callJson('POST', `${base(id)}/check`, { admin: true, body: version === undefined ? {} : { template_version: version } });
}

/** The template with its assets as one .tar.gz, and the file name the server suggests. */
export async function exportTemplate(id: string): Promise<{ bytes: Uint8Array; filename: string }> {
  const response = await call('GET', `${base(id)}/export`, { admin: true });
  const filename = filenameOf(response.headers) ?? `${id}.quire-template.tar.gz`;
  return { bytes: new Uint8Array(await response.arrayBuffer()), filename };
}

/** Imports an exported archive as a new template owned by keyId. */
export function importTemplate(keyId: string, archive: Blob): Promise<Template> {
  return callJson('POST', '/admin/v1/templates/import', { admin: true, query: { key_id: keyId }, file: archive });
}
