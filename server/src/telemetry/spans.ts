// Traces for the layers that do the work (docs/decisions.md, "OpenTelemetry: on only with an
// endpoint, free when off"). Every layer imports this module and nothing else of OpenTelemetry,
// and this module imports only @opentelemetry/api. With OTEL_EXPORTER_OTLP_ENDPOINT unset no SDK
// is registered (telemetry/otel.ts): each helper checks one boolean and runs the work as it is,
// so the render path pays for a branch, not for the API's no-op objects.

import { SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

let on = false;
/** Told each stage's duration once it is known (the OTLP metrics, telemetry/otel.ts). */
let stageListener: ((stage: string, ms: number) => void) | undefined;

/** Set by telemetry/otel.ts when its SDK is registered (and cleared when it shuts down). */
export function setTelemetry(enabled: boolean, onStage?: (stage: string, ms: number) => void): void {
  on = enabled;
  stageListener = enabled ? onStage : undefined;
}

/** Whether spans are recorded: OTEL_EXPORTER_OTLP_ENDPOINT was set. */
export function telemetryOn(): boolean {
  return on;
}

const tracer = () => trace.getTracer('quire');

/** Runs `work` as a child span of the current one (when on), ending it with the work's outcome. */
export function inSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  if (!on) return work();
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Runs `work` once and measures it once: the duration it returns is the one a receipt records,
 * and (when on) the span's start and end and the stage metric are the same two readings.
 */
export async function timed<T>(name: string, attributes: Attributes, work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  if (!on) {
    const value = await work();
    return { value, ms: performance.now() - started };
  }
  return tracer().startActiveSpan(name, { attributes, startTime: started }, async (span) => {
    let ended = started;
    try {
      const value = await work();
      ended = performance.now();
      return { value, ms: ended - started };
    } catch (error) {
      ended = performance.now();
      failed(span, error);
      throw error;
    } finally {
      span.end(ended);
      stageListener?.(name, ended - started);
    }
  });
}

/** A stage already timed elsewhere (a render's marks, render/render-trace.ts): start and end in performance.now() milliseconds. */
export interface TimedStage {
  name: string;
  start: number;
  end: number;
}

/** Spans for stages timed by their marks, children of the current span, and their durations to the stage metric. */
export function recordStages(stages: readonly TimedStage[], attributes: Attributes = {}): void {
  if (!on) return;
  const parent = context.active();
  for (const stage of stages) {
    tracer().startSpan(stage.name, { attributes, startTime: stage.start }, parent).end(stage.end);
    stageListener?.(stage.name, stage.end - stage.start);
  }
}

/** Adds attributes to the current span (a render's outcome, a batch's id). */
export function annotate(attributes: Attributes): void {
  if (on) trace.getActiveSpan()?.setAttributes(attributes);
}

/** The current trace's id (32 hex digits), for receipts; undefined when off or outside a trace. */
export function currentTraceId(): string | undefined {
  if (!on) return undefined;
  const span = trace.getActiveSpan();
  return span?.isRecording() ? span.spanContext().traceId : undefined;
}

/** pino's mixin (logger.ts): trace_id and span_id on every line written inside a span. A new object each time: pino merges the line into it. */
export function logFields(): Record<string, string> {
  if (!on) return {};
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** The current context as W3C headers (traceparent, tracestate): sent on webhook deliveries, stored with a batch. */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  if (on) propagation.inject(context.active(), carrier);
  return carrier;
}

/** Runs `work` in the trace a stored traceparent names (a batch's webhook, its background items); as it is without one. */
export function continueTrace<T>(traceparent: string | undefined, work: () => T): T {
  if (!on || !traceparent) return work();
  return context.with(propagation.extract(context.active(), { traceparent }), work);
}

/** An HTTP request's server span, continuing the caller's traceparent. */
export interface ServerSpan {
  /** Runs the rest of the request inside the span. */
  run<T>(work: () => T): T;
  end(status: number, route: string | undefined): void;
}

/** The server span of a request (http/middleware/request-context.ts); undefined when off. */
export function serverSpan(method: string, path: string, headers: Record<string, string | string[] | undefined>): ServerSpan | undefined {
  if (!on) return undefined;
  const remote = propagation.extract(context.active(), headers, {
    get: (carrier, key) => carrier[key],
    keys: (carrier) => Object.keys(carrier),
  });
  // Named by its route at the end (a path with ids in it would make every request a name of its own).
  const span = tracer().startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': path } }, remote);
  const active: Context = trace.setSpan(remote, span);
  return {
    run: (work) => context.with(active, work),
    end(status, route) {
      span.setAttribute('http.response.status_code', status);
      if (route) {
        span.setAttribute('http.route', route);
        span.updateName(`${method} ${route}`);
      }
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}

function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: String((error as Error)?.message ?? error).slice(0, 300) });
}
