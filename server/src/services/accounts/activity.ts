// The Activity screen's numbers (GET /admin/v1/activity): the last hour of renders, minute by
// minute, and the most recent ones, gathered from the event bus, so on PostgreSQL every
// instance's renders count (LISTEN/NOTIFY). Each instance also tells the bus about its renderer
// every few seconds (slots busy, queue, browser restarts, render path). Memory only: a restarted
// instance shows what happened since it started.

import type { EventBus, ServerEvent } from '../../events.ts';
import type { ActivityMinute, ActivitySnapshot, InstanceStats, RenderActivity } from '../../shapes/activity-json.ts';

export type { ActivityMinute, ActivitySnapshot };
import type { RendererStats } from '../../render/render-job.ts';

const MINUTES = 60;
const RECENT = 200;
/** Durations kept per minute for its percentiles; beyond this a minute keeps a fair sample. */
const DURATIONS_PER_MINUTE = 2000;
export const STATS_INTERVAL_MS = 5000;

interface MinuteBucket {
  start: number;
  renders: number;
  succeeded: number;
  failed: number;
  byCode: Map<string, number>;
  durations: number[];
  seen: number;
  queuedBy: Map<string, number>;
  busyBy: Map<string, number>;
  restarts: number;
}

export class ActivityService {
  private readonly buckets: MinuteBucket[] = [];
  private readonly recent: RenderActivity[] = [];
  private readonly instances = new Map<string, InstanceStats>();
  private readonly unsubscribe: () => void;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly deps: {
      events: EventBus;
      instance: string;
      stats: () => RendererStats;
      now?: () => Date;
    },
  ) {
    this.unsubscribe = deps.events.subscribe((event) => this.take(event));
    this.publishStats();
    this.timer = setInterval(() => this.publishStats(), STATS_INTERVAL_MS);
    this.timer.unref();
  }

  /** The last hour, oldest minute first, and the most recent renders, newest first. */
  snapshot(): ActivitySnapshot {
    const now = this.now();
    const current = minuteOf(now);
    const byStart = new Map(this.buckets.map((bucket) => [bucket.start, bucket]));
    const minutes: ActivityMinute[] = [];
    for (let i = MINUTES - 1; i >= 0; i--) {
      const start = current - i * 60_000;
      minutes.push(minuteJson(start, byStart.get(start)));
    }
    return { now: new Date(now).toISOString(), minutes, recent: [...this.recent].reverse(), instances: [...this.instances.values()] };
  }

  close(): void {
    clearInterval(this.timer);
    this.unsubscribe();
  }

  private take(event: ServerEvent): void {
    if (event.type === 'render.completed') this.takeRender(event.data);
    else if (event.type === 'instance.stats') this.takeStats(event.data);
  }

  private takeRender(render: RenderActivity): void {
    this.recent.push(render);
    if (this.recent.length > RECENT) this.recent.shift();
    const bucket = this.bucket();
    bucket.renders++;
    if (render.status === 'succeeded') bucket.succeeded++;
    else {
      bucket.failed++;
      const code = render.code ?? 'unknown';
      bucket.byCode.set(code, (bucket.byCode.get(code) ?? 0) + 1);
    }
    // Reservoir sampling keeps the percentiles fair when a minute has more renders than we keep.
    bucket.seen++;
    if (bucket.durations.length < DURATIONS_PER_MINUTE) bucket.durations.push(render.ms);
    else {
      const at = Math.floor(Math.random() * bucket.seen);
      if (at < DURATIONS_PER_MINUTE) bucket.durations[at] = render.ms;
    }
  }

  private takeStats(stats: InstanceStats): void {
    const previous = this.instances.get(stats.instance);
    this.instances.set(stats.instance, stats);
    const bucket = this.bucket();
    bucket.queuedBy.set(stats.instance, Math.max(bucket.queuedBy.get(stats.instance) ?? 0, stats.queued));
    bucket.busyBy.set(stats.instance, Math.max(bucket.busyBy.get(stats.instance) ?? 0, stats.slots_busy));
    if (previous && stats.browser_restarts > previous.browser_restarts) bucket.restarts += stats.browser_restarts - previous.browser_restarts;
  }

  private publishStats(): void {
    const stats = this.deps.stats();
    this.deps.events.publish('instance.stats', {
      instance: this.deps.instance,
      at: new Date(this.now()).toISOString(),
      slots: stats.size,
      slots_busy: stats.busy,
      queued: stats.queued + stats.backgroundQueued,
      browser_restarts: stats.restarts,
      render_path: { engine: stats.version, mode: stats.renderPath.mode },
    });
  }

  /** The current minute's bucket; minutes older than the hour are dropped. */
  private bucket(): MinuteBucket {
    const start = minuteOf(this.now());
    let last = this.buckets.at(-1);
    if (!last || last.start !== start) {
      last = { start, renders: 0, succeeded: 0, failed: 0, byCode: new Map(), durations: [], seen: 0, queuedBy: new Map(), busyBy: new Map(), restarts: 0 };
      this.buckets.push(last);
      while (this.buckets.length > 0 && this.buckets[0]!.start <= start - MINUTES * 60_000) this.buckets.shift();
    }
    return last;
  }

  private now(): number {
    return (this.deps.now?.() ?? new Date()).getTime();
  }
}

function minuteOf(ms: number): number {
  return Math.floor(ms / 60_000) * 60_000;
}

function minuteJson(start: number, bucket: MinuteBucket | undefined): ActivityMinute {
  const sorted = [...(bucket?.durations ?? [])].sort((a, b) => a - b);
  const sum = (values: Map<string, number> | undefined) => [...(values?.values() ?? [])].reduce((total, value) => total + value, 0);
  return {
    minute: new Date(start).toISOString(),
    renders: bucket?.renders ?? 0,
    succeeded: bucket?.succeeded ?? 0,
    failed: bucket?.failed ?? 0,
    by_code: Object.fromEntries(bucket?.byCode ?? []),
    p50_ms: percentile(sorted, 0.5),
    p95_ms: percentile(sorted, 0.95),
    queued: sum(bucket?.queuedBy),
    slots_busy: sum(bucket?.busyBy),
    browser_restarts: bucket?.restarts ?? 0,
  };
}

function percentile(sorted: number[], rank: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil(rank * sorted.length) - 1)]!;
}
