// docs/api.md#admin-pdf-transform: the admin window's transform (an upload or any key's stored
// document, in steps; neither charged nor kept) and a key's presets of steps.

import type { StepReport } from '../../../server/src/shapes/transform-json.ts';
import { call, callJson, filenameOf } from './client.ts';
import type { PdfSource } from './pdf-tools.ts';

/** A step as the server takes it (server/src/pdf/transform/steps.ts). */
export type TransformStep =
  | { op: 'select' | 'delete'; pages: string }
  | { op: 'reorder'; order: string }
  | { op: 'duplicate'; pages: string; copies?: number }
  | { op: 'insert_blank'; after: number; count?: number }
  | { op: 'rotate'; angle: number; pages?: string }
  | { op: 'split'; every?: number; ranges?: string[]; by?: 'bookmarks'; output?: 'zip' }
  | { op: 'flatten' }
  | { op: 'compress'; mode?: 'images' | 'lossless'; dpi?: number; quality?: number }
  | { op: 'fill_form'; fields: Record<string, unknown>; flatten?: boolean };

export type { StepReport };

export interface TransformOutcome {
  bytes: Uint8Array;
  filename: string;
  /** application/pdf, or application/zip after a split. */
  contentType: string;
  steps: StepReport[];
}

export interface Preset {
  id: string;
  name: string;
  steps: TransformStep[];
  created_at: string;
  updated_at: string;
}

export async function transformPdf(source: PdfSource, steps: TransformStep[], filename: string): Promise<TransformOutcome> {
  const response = await call('POST', '/admin/v1/pdf/transform', { admin: true, body: { ...source, steps, filename } });
  const contentType = response.headers.get('content-type')?.split(';')[0] ?? 'application/pdf';
  const named = filenameOf(response.headers);
  return {
    bytes: new Uint8Array(await response.arrayBuffer()),
    filename: named ?? (contentType === 'application/zip' ? filename.replace(/\.pdf$/i, '.zip') : filename),
    contentType,
    steps: JSON.parse(response.headers.get('x-pdf-steps') ?? '[]') as StepReport[],
  };
}

export async function listPresets(keyId: string, signal?: AbortSignal): Promise<Preset[]> {
  return (await callJson<{ data: Preset[] }>('GET', '/admin/v1/pdf/presets', { admin: true, query: { key_id: keyId }, signal })).data;
}

export function savePreset(keyId: string, name: string, steps: TransformStep[]): Promise<Preset> {
  return callJson<Preset>('POST', '/admin/v1/pdf/presets', { admin: true, body: { key_id: keyId, name, steps } });
}

export async function deletePreset(keyId: string, id: string): Promise<void> {
  await call('DELETE', `/admin/v1/pdf/presets/${encodeURIComponent(id)}`, { admin: true, query: { key_id: keyId } });
}
