// Prometheus instruments. The renderer reports through hooks, so render/ does not know prom-client.

import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RenderOutcome, RendererStats } from './render/renderer.ts';
import type { EgressOutcome } from './guard/egress-proxy.ts';

export interface Metrics {
  registry: Registry;
  onRender(outcome: RenderOutcome, seconds: number): void;
  onBrowserRestart(reason: string): void;
  /** One decision of the network guard's egress proxy. */
  onEgress(outcome: EgressOutcome): void;
  /** Gauges read the renderer's current state at scrape time. */
  watchRenderer(stats: () => RendererStats): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  // prom-client's own names already say what they are (process_cpu_seconds_total, nodejs_heap_size_used_bytes):
  // the prefix only namespaces them, so quire_process_cpu_seconds_total and not quire_process_process_...
  collectDefaultMetrics({ register: registry, prefix: 'quire_' });
  const renders = new Counter({ name: 'quire_renders_total', help: 'Renders by outcome.', labelNames: ['outcome'], registers: [registry] });
  const duration = new Histogram({
    name: 'quire_render_duration_seconds',
    help: 'Time from admission to PDF bytes, including the wait for a slot.',
    labelNames: ['outcome'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers: [registry],
  });
  const egress = new Counter({
    name: 'quire_egress_requests_total',
    help: 'Connections the network guard was asked for, by outcome (allowed, blocked, failed: unresolvable).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const restarts = new Counter({ name: 'quire_browser_restarts_total', help: 'Browser relaunches by reason.', labelNames: ['reason'], registers: [registry] });
  let stats: (() => RendererStats) | undefined;
  new Gauge({
    name: 'quire_render_slots_busy',
    help: 'Render slots in use.',
    registers: [registry],
    collect() {
      this.set(stats?.().busy ?? 0);
    },
  });
  new Gauge({
    name: 'quire_render_queue_length',
    help: 'Renders waiting for a slot.',
    registers: [registry],
    collect() {
      this.set(stats?.().queued ?? 0);
    },
  });
  new Gauge({
    name: 'quire_render_slots',
    help: 'Render slots configured.',
    registers: [registry],
    collect() {
      this.set(stats?.().size ?? 0);
    },
  });
  return {
    registry,
    onRender(outcome, seconds) {
      renders.inc({ outcome });
      duration.observe({ outcome }, seconds);
    },
    onBrowserRestart(reason) {
      restarts.inc({ reason });
    },
    onEgress(outcome) {
      egress.inc({ outcome });
    },
    watchRenderer(read) {
      stats = read;
    },
  };
}
