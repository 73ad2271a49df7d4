// CONTRACT.md, Admin interface: templates of every key, and the uncharged preview.

import { call, callJson, callPdf, type PdfResponse } from './client.ts';
import type { Page, PdfOptions, Template, TemplateSummary } from './types.ts';

export function listTemplates(query: { key_id?: string; cursor?: string; limit?: number }, signal?: AbortSignal): Promise<Page<TemplateSummary>> {
  return callJson<Page<TemplateSummary>>('GET', '/admin/v1/templates', { admin: true, query, signal });
}

export function getTemplate(id: string, signal?: AbortSignal): Promise<Template> {
  return callJson<Template>('GET', `/admin/v1/templates/${encodeURIComponent(id)}`, { admin: true, signal });
}

export function createTemplate(input: { key_id: string; name: string; html: string; sample_data?: Record<string, unknown> | null }): Promise<Template> {
  return callJson<Template>('POST', '/admin/v1/templates', { admin: true, body: input });
}

export function updateTemplate(id: string, input: { name: string; html: string; sample_data: Record<string, unknown> | null }): Promise<Template> {
  return callJson<Template>('PUT', `/admin/v1/templates/${encodeURIComponent(id)}`, { admin: true, body: input });
}

export async function deleteTemplate(id: string): Promise<void> {
  await call('DELETE', `/admin/v1/templates/${encodeURIComponent(id)}`, { admin: true });
}

export function previewTemplate(input: { html: string; data?: Record<string, unknown>; options?: PdfOptions }, signal?: AbortSignal): Promise<PdfResponse> {
  return callPdf('POST', '/admin/v1/templates/preview', { admin: true, body: input, signal });
}
