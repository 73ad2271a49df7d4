// OpenTelemetry (docs/api.md#opentelemetry): with OTEL_EXPORTER_OTLP_ENDPOINT set, a request is a
// trace that continues the caller's W3C traceparent, with spans for the render's stages (timed by
// the same marks as the receipt), the final steps and storing; the trace id is on the log lines
// and in the receipt; a batch's webhook delivery is a span of the batch's trace and sends its
// traceparent; metrics arrive over OTLP too. Without the endpoint nothing of it shows. A loopback
// OTLP/HTTP receiver (tests/helpers/otlp-receiver.ts) plays the collector.

import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { startTestServer, type TestServer } from '../helpers/start-app.ts';
import { startRecordingServer } from '../helpers/canary.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.ts';
import { waitForBatch } from '../helpers/batches.ts';
import { createLogger } from '../../server/src/logger.ts';
import type { Config } from '../../server/src/config.ts';

// Spans leave in batches: a short delay keeps the test quick (the SDK reads OTEL_BSP_* itself).
process.env.OTEL_BSP_SCHEDULE_DELAY = '50';

const SERVER_KIND = 2;
const CSV = Buffer.from('month,revenue\nJan,10\n').toString('base64');

/** A server whose log lines are kept (parsed) for the test. */
async function serverWithLog(t: TestContext, config: Partial<Config>): Promise<{ server: TestServer; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  const server = await startTestServer(t, config, { log: createLogger('info', sink) });
  return { server, lines };
}

async function receiver(t: TestContext): Promise<OtlpReceiver> {
  const otlp = await startOtlpReceiver();
  t.after(() => otlp.close());
  return otlp;
}

function traceparent(): { header: string; traceId: string; parentId: string } {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { header: `00-${traceId}-${parentId}-01`, traceId, parentId };
}

const named = (spans: ReceivedSpan[], name: string, traceId: string) => spans.filter((span) => span.name === name && span.traceId === traceId);

test('without OTEL_EXPORTER_OTLP_ENDPOINT: no trace id in the receipt nor on the log lines, and no traceparent is answered for', async (t) => {
  const { server, lines } = await serverWithLog(t, {});
  const caller = traceparent();
  const response = await server.render({ html: '<p>off</p>', options: { wait_until: 'load', receipt: true } }, { traceparent: caller.header });
  assert.equal(response.status, 200);
  const receipt = (await (await server.request('GET', response.headers.get('x-render-receipt')!)).json()) as {
    trace_id: unknown;
    timings_ms: { print: number };
  };
  assert.equal(receipt.trace_id, null);
  assert.ok(receipt.timings_ms.print > 0, 'the receipt still times its stages');
  const request = lines.find((line) => line.msg === 'request' && line.path === '/v1/pdf');
  assert.ok(request, 'the request is logged');
  assert.equal(request.trace_id, undefined);
});

test('a render continues the caller traceparent: server span, render stages, final step and storing as children; trace id in receipt and log', async (t) => {
  const otlp = await receiver(t);
  const { server, lines } = await serverWithLog(t, { otelEndpoint: otlp.url, otelMetricIntervalMs: 200 });
  const caller = traceparent();
  const response = await server.render(
    {
      html: '<h1>Traced</h1>',
      store: true,
      options: { wait_until: 'load', receipt: true, attachments: [{ filename: 'revenue.csv', content: CSV, mime_type: 'text/csv' }] },
    },
    { traceparent: caller.header },
  );
  assert.equal(response.status, 200);
  assert.equal(
    Buffer.from(await response.arrayBuffer())
      .subarray(0, 5)
      .toString('latin1'),
    '%PDF-',
  );
  const receipt = (await (await server.request('GET', response.headers.get('x-render-receipt')!)).json()) as {
    trace_id: string;
    timings_ms: Record<string, number | null>;
    steps: { step: string; ms: number }[];
  };
  assert.equal(receipt.trace_id, caller.traceId, 'the receipt names the trace the caller started');

  const want = [
    'POST /v1/pdf',
    'render',
    'render.queue_wait',
    'render.page',
    'render.load',
    'render.print',
    'render.post_processing',
    'output.attachments',
    'store',
  ];
  const spans = await otlp.waitFor((all) => (want.every((name) => named(all, name, caller.traceId).length > 0) ? all : undefined));
  const one = (name: string) => named(spans, name, caller.traceId)[0]!;
  const request = one('POST /v1/pdf');
  assert.equal(request.kind, SERVER_KIND);
  assert.equal(request.parentSpanId, caller.parentId, 'the server span is a child of the caller span');
  assert.equal(request.attributes['http.route'], '/v1/pdf');
  assert.equal(request.attributes['http.response.status_code'], 200);
  assert.equal(request.service, 'quire');
  const render = one('render');
  assert.equal(render.parentSpanId, request.spanId);
  for (const name of want.slice(2)) assert.equal(one(name).parentSpanId, render.spanId, `${name} is a child of render`);
  // One source of timings: the print span lasts what the receipt says print took (both from the same marks).
  const printMs = Number(one('render.print').endNs - one('render.print').startNs) / 1e6;
  assert.ok(Math.abs(printMs - receipt.timings_ms.print!) < 0.2, `print span ${printMs} ms, receipt ${receipt.timings_ms.print} ms`);
  const stepMs = Number(one('output.attachments').endNs - one('output.attachments').startNs) / 1e6;
  assert.equal(Math.round(stepMs), receipt.steps.find((step) => step.step === 'attachments')!.ms);
  // Stages follow one another inside the render span (to the SDK's clock anchoring: each span turns
  // performance time into wall time with its own millisecond reading, so edges agree within 2 ms).
  const ms2 = 2_000_000n;
  assert.ok(one('render.queue_wait').startNs >= render.startNs - ms2 && one('render.print').endNs <= render.endNs + ms2);
  assert.ok(one('render.load').startNs >= one('render.page').endNs - ms2);
  assert.ok(one('render.print').startNs >= one('render.load').endNs - ms2);

  const logged = lines.find((line) => line.msg === 'request' && line.path === '/v1/pdf');
  assert.equal(logged?.trace_id, caller.traceId, 'the request log line carries the trace id');

  const metrics = await otlp.waitFor((_spans, names) => (names.has('quire.renders') && names.has('quire.stage.duration') ? names : undefined));
  assert.ok(metrics.has('quire.render.duration'));
});

test("a batch's items and its webhook delivery continue the creating request's trace, and the delivery sends its traceparent", async (t) => {
  const otlp = await receiver(t);
  const deliveries: Record<string, string>[] = [];
  const hook = await startRecordingServer('127.0.0.1', 0, {
    '/hook': (req, res) => {
      deliveries.push(req.headers as Record<string, string>);
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    },
  });
  t.after(() => hook.close());
  const { server } = await serverWithLog(t, { otelEndpoint: otlp.url, allowHosts: [`127.0.0.1:${hook.port}`] });
  const caller = traceparent();
  const created = await server.request(
    'POST',
    '/v1/pdf/batch',
    { requests: [{ html: '<p>one</p>' }], options: { wait_until: 'load' }, async: true, webhook_url: `${hook.url}/hook` },
    { traceparent: caller.header },
  );
  assert.equal(created.status, 202);
  const { batch_id: id } = (await created.json()) as { batch_id: string };
  await waitForBatch(server, id);
  const spans = await otlp.waitFor((all) => (all.some((span) => span.name === 'webhook.deliver') ? all : undefined));
  const deliver = spans.find((span) => span.name === 'webhook.deliver')!;
  assert.equal(deliveries.length, 1);
  assert.equal(deliveries[0]!.traceparent, `00-${deliver.traceId}-${deliver.spanId}-01`, 'the receiver is told the delivery span');
  const render = spans.find((span) => span.name === 'render' && span.attributes['quire.batch_id'] === id);
  assert.ok(render, 'the background item rendered in a span');
  assert.equal(render.traceId, deliver.traceId, 'item and webhook share the trace of the request that created the batch');
  const request = spans.find((span) => span.name === 'POST /v1/pdf/batch' && span.traceId === deliver.traceId);
  assert.equal(deliver.traceId, caller.traceId, 'the trace is the one the caller started');
  assert.equal(request?.parentSpanId, caller.parentId, 'that trace goes through POST /v1/pdf/batch');
});
