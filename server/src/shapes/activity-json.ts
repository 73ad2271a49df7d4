// What the Activity screen reads (GET /admin/v1/activity and the render.completed and
// instance.stats events): the wire shapes, snake_case, shared by the server and the admin UI
// (ui/src/api/activity.ts), so the two cannot drift. Types only: no imports, nothing at run time.

/** One render, as the Activity screen lists it (services/accounts/receipts.ts publishes it). */
export interface RenderActivity {
  at: string;
  instance: string;
  key_id: string | null;
  /** pdf, image, merge, merge_source, office, batch_item or playground. */
  kind: string;
  /** The source kind: html, url, template, markdown, office or merge. */
  source: string;
  status: 'succeeded' | 'failed';
  code: string | null;
  pages: number | null;
  ms: number;
  receipt_id: string | null;
}

/** One instance's renderer at a moment: the Activity screen's queue, slots, restarts and render path. */
export interface InstanceStats {
  instance: string;
  at: string;
  slots: number;
  slots_busy: number;
  queued: number;
  browser_restarts: number;
  /** The engine's version text and the render path default renders take (render/render-path.ts mode). */
  render_path: { engine: string; mode: string };
}

export interface ActivityMinute {
  /** The minute's start, ISO 8601. */
  minute: string;
  renders: number;
  succeeded: number;
  failed: number;
  /** Failed renders by error code. */
  by_code: Record<string, number>;
  p50_ms: number | null;
  p95_ms: number | null;
  /** The most renders waiting, and slots busy, any instance reported in the minute (summed over instances). */
  queued: number;
  slots_busy: number;
  browser_restarts: number;
}

export interface ActivitySnapshot {
  now: string;
  minutes: ActivityMinute[];
  recent: RenderActivity[];
  instances: InstanceStats[];
}
