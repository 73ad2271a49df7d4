// The OpenTelemetry SDK, started by app.ts only when OTEL_EXPORTER_OTLP_ENDPOINT is set: traces
// and metrics over OTLP/HTTP (JSON) to <endpoint>/v1/traces and <endpoint>/v1/metrics, W3C trace
// context, spans batched (OTEL_BSP_*), sampled as OTEL_TRACES_SAMPLER says, and the resource
// named by OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES: the SDK reads those itself, as every
// operator's other services do. The registration is process-wide (the API's globals), so two apps
// in one process (the two-instance tests) share one SDK, shut down when the last one closes.

import { context, metrics, propagation, trace, type Meter } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { setTelemetry } from './spans.ts';

export interface TelemetryOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL. */
  endpoint: string;
  /** OTEL_METRIC_EXPORT_INTERVAL: milliseconds between metric exports. */
  metricIntervalMs: number;
  version: string;
  /** service.instance.id: the instance's name (INSTANCE_NAME or the host's). */
  instance: string;
}

export interface Telemetry {
  /** Where metrics.ts records the same events it counts for /metrics. */
  meter: Meter;
  /** Flushes what is batched and, for the last app of the process, unregisters the SDK. */
  shutdown(): Promise<void>;
}

interface Registered {
  meter: Meter;
  users: number;
  stop(): Promise<void>;
}

let registered: Registered | undefined;

export function startTelemetry(options: TelemetryOptions): Telemetry {
  registered ??= register(options);
  const current = registered;
  current.users++;
  let closed = false;
  return {
    meter: current.meter,
    async shutdown() {
      if (closed) return;
      closed = true;
      if (--current.users > 0) return;
      registered = undefined;
      await current.stop();
    },
  };
}

function register(options: TelemetryOptions): Registered {
  const base = options.endpoint.replace(/\/+$/, '');
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (envDetector) win over these defaults.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'quire', 'service.version': options.version, 'service.instance.id': options.instance }))
    .merge(detectResources({ detectors: [envDetector] }));
  const tracerProvider = new BasicTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${base}/v1/traces` }))],
  });
  const meterProvider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: `${base}/v1/metrics` }),
        exportIntervalMillis: options.metricIntervalMs,
        exportTimeoutMillis: Math.min(30_000, options.metricIntervalMs),
      }),
    ],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  const meter = meterProvider.getMeter('quire', options.version);
  // One instrument for every stage's duration, fed where the stage is timed (spans.ts).
  const stages = meter.createHistogram('quire.stage.duration', {
    unit: 'ms',
    description:
      'Duration of each stage of a render or call: queue wait, page, load, waits, print, post-processing, final steps, storing, webhooks, office conversion.',
  });
  setTelemetry(true, (stage, ms) => stages.record(ms, { stage }));
  return {
    meter,
    users: 0,
    async stop() {
      setTelemetry(false);
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
    },
  };
}
