// docs/api.md#activity and #render-receipts: the Activity screen's numbers and any render's receipt.

import type { ActivityMinute, ActivitySnapshot as Activity, InstanceStats, RenderActivity } from '../../../server/src/shapes/activity-json.ts';
import { callJson } from './client.ts';

export type { Activity, ActivityMinute, InstanceStats, RenderActivity };

export interface ReceiptRequest {
  method: string;
  url: string;
  type: string;
  source: string;
  status: number | null;
  /** Bytes received; null for a request the network guard refused. */
  bytes: number | null;
  start_ms: number;
  duration_ms: number | null;
  failure: string | null;
  blocked: boolean;
}

export interface Receipt {
  receipt_version: number;
  id: string;
  request_id: string | null;
  key_id: string | null;
  kind: string;
  created_at: string;
  status: 'succeeded' | 'failed';
  error: { code: string; detail: string } | null;
  failed_stage: string | null;
  document_id: string | null;
  source: {
    type: string;
    url?: string;
    template_id?: string;
    template_version?: number;
    filenames?: string[];
    sources?: number;
    document_id?: string;
    preset_id?: string;
  };
  options: Record<string, unknown>;
  render_path: { clock: string; mode: string; engine: string } | null;
  timings_ms: Record<string, number | null>;
  requests: ReceiptRequest[];
  requests_not_listed: number;
  blocked: { url: string; reason: string }[];
  console: { kind: string; level: string; text: string; url?: string; line?: number }[];
  fonts: { name: string | null; subset: boolean; type: string; embedded: boolean; named_by_page: boolean | null }[];
  pages: { count: number; width_pt: number; height_pt: number } | null;
  bytes: number | null;
  /** The final steps the output took; PDF/A's report is ConformanceReport (docs/api.md#pdfa). */
  steps?: { step: string; ms: number; bytes_before: number; bytes_after: number; report: Record<string, unknown> | null }[];
  warnings: string[];
}

export function getActivity(signal?: AbortSignal): Promise<Activity> {
  return callJson<Activity>('GET', '/admin/v1/activity', { admin: true, signal });
}

export function getReceipt(id: string, signal?: AbortSignal): Promise<Receipt> {
  return callJson<Receipt>('GET', `/admin/v1/receipts/${encodeURIComponent(id)}`, { admin: true, signal });
}

/** The report a final step left in the receipt (its shape is the step's own), if that step ran. */
export function stepReport<T>(receipt: Receipt, step: string): T | undefined {
  return (receipt.steps?.find((item) => item.step === step)?.report ?? undefined) as T | undefined;
}
