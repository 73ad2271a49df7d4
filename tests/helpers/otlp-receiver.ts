// A small OTLP/HTTP receiver on loopback, as a collector would be: it takes the JSON encoding the
// OpenTelemetry exporters send to /v1/traces and /v1/metrics, keeps every span and metric name,
// and lets a test wait for what it expects (an event per export, never a sleep).

import { once } from 'node:events';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, unknown>;
  /** service.name of the resource that sent it. */
  service: string;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Metric names received so far. */
  metrics: Set<string>;
  /** Resolves with the spans once `ready(spans)` holds (checked at each export). */
  waitFor<T>(ready: (spans: ReceivedSpan[], metrics: Set<string>) => T | undefined): Promise<T>;
  close(): Promise<void>;
}

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}

function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) out[key] = Object.values(value)[0];
  return out;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const metrics = new Set<string>();
  const exported = new EventEmitter();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      if (req.url === '/v1/traces') {
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
          for (const scope of resourceSpans.scopeSpans ?? [])
            for (const span of scope.spans ?? [])
              spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                name: span.name,
                kind: span.kind,
                startNs: BigInt(span.startTimeUnixNano),
                endNs: BigInt(span.endTimeUnixNano),
                attributes: attributesOf(span.attributes),
                service,
              });
        }
      } else if (req.url === '/v1/metrics') {
        for (const resourceMetrics of body.resourceMetrics ?? [])
          for (const scope of resourceMetrics.scopeMetrics ?? []) for (const metric of scope.metrics ?? []) metrics.add(metric.name);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      exported.emit('export');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    metrics,
    async waitFor(ready) {
      for (;;) {
        const found = ready(spans, metrics);
        if (found !== undefined && found !== false) return found;
        await once(exported, 'export');
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
