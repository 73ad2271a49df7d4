// Prometheus instruments. The renderer reports through hooks, so render/ does not know prom-client.
// With OpenTelemetry on (telemetry/otel.ts) each hook also records on an OTLP instrument of the
// same meaning, so /metrics and the collector count the same events once each.

import type { Meter } from '@opentelemetry/api';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RenderOutcome, RendererStats } from './render/render-job.ts';
import type { EgressOutcome } from './guard/egress-proxy.ts';
import { RENDER_PATH_MODES, type RenderPathMode } from './render/render-path.ts';

export interface Metrics {
  registry: Registry;
  onRender(outcome: RenderOutcome, seconds: number): void;
  onBrowserRestart(reason: string): void;
  /** A render tried again after its browser or page crashed under it (renderer.ts). */
  onRenderRetry(scope: 'browser' | 'page'): void;
  /** A browser launch chose a render path below the best one, by the probe or the crash breaker (render-path.ts). */
  onRenderPathFallback(mode: RenderPathMode, by: 'probe' | 'breaker'): void;
  /** One decision of the network guard's egress proxy. */
  onEgress(outcome: EgressOutcome): void;
  /** Gauges read the renderer's current state at scrape time. */
  watchRenderer(stats: () => RendererStats): void;
}

export function createMetrics(meter?: Meter): Metrics {
  const otlp = meter && otlpInstruments(meter, () => stats?.());
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
  const retries = new Counter({
    name: 'quire_render_retries_total',
    help: 'Renders tried a second time because their browser (scope browser) or page (scope page) crashed under them.',
    labelNames: ['scope'],
    registers: [registry],
  });
  const fallbacks = new Counter({
    name: 'quire_render_path_fallbacks_total',
    help: 'Browser launches that chose a render path below the best one (mode: the path taken; by: probe, the engine lacks or failed the better ones; breaker, they kept crashing this browser build).',
    labelNames: ['mode', 'by'],
    registers: [registry],
  });
  let stats: (() => RendererStats) | undefined;
  new Gauge({
    name: 'quire_render_path',
    help: 'The render path default renders take now: 1 for the mode in force (virtual-begin-frame, virtual-real-frames, real).',
    labelNames: ['mode'],
    registers: [registry],
    collect() {
      const current = stats?.().renderPath.mode;
      for (const mode of RENDER_PATH_MODES) this.set({ mode }, mode === current ? 1 : 0);
    },
  });
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
      otlp?.renders.add(1, { outcome });
      otlp?.duration.record(seconds, { outcome });
    },
    onBrowserRestart(reason) {
      restarts.inc({ reason });
      otlp?.restarts.add(1, { reason });
    },
    onRenderRetry(scope) {
      retries.inc({ scope });
      otlp?.retries.add(1, { scope });
    },
    onRenderPathFallback(mode, by) {
      fallbacks.inc({ mode, by });
      otlp?.fallbacks.add(1, { mode, by });
    },
    onEgress(outcome) {
      egress.inc({ outcome });
      otlp?.egress.add(1, { outcome });
    },
    watchRenderer(read) {
      stats = read;
    },
  };
}

/** The OTLP side of the same events, named as OpenTelemetry names things (dots, units apart). */
function otlpInstruments(meter: Meter, read: () => RendererStats | undefined) {
  const slots = meter.createObservableGauge('quire.render.slots', {
    description: 'Render slots: in use (state busy), waiting renders (queued), configured (size).',
  });
  slots.addCallback((result) => {
    const current = read();
    if (!current) return;
    result.observe(current.busy, { state: 'busy' });
    result.observe(current.queued, { state: 'queued' });
    result.observe(current.size, { state: 'size' });
  });
  return {
    renders: meter.createCounter('quire.renders', { description: 'Renders by outcome.' }),
    duration: meter.createHistogram('quire.render.duration', { unit: 's', description: 'Time from admission to PDF bytes, including the wait for a slot.' }),
    restarts: meter.createCounter('quire.browser.restarts', { description: 'Browser relaunches by reason.' }),
    retries: meter.createCounter('quire.render.retries', { description: 'Renders tried again after their browser or page crashed.' }),
    fallbacks: meter.createCounter('quire.render_path.fallbacks', { description: 'Browser launches that chose a render path below the best one.' }),
    egress: meter.createCounter('quire.egress.requests', { description: 'Connections the network guard was asked for, by outcome.' }),
  };
}
