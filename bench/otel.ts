// Bench: what OpenTelemetry costs (issue 34: free when off). Two parts:
// 1. The helpers every render calls (telemetry/spans.ts: inSpan, timed, logFields) with no SDK
//    registered, in nanoseconds per call: what "off" adds to a render, whatever the machine's load.
// 2. The invoice rendered by two servers started alike, one without OTEL_EXPORTER_OTLP_ENDPOINT and
//    one exporting to a loopback OTLP receiver, alternated three times so a noisy neighbour hits
//    both alike: renders per second and CPU ms per render (server and Chromium together).
// Run: npx tsx bench/otel.ts   (BENCH_OTEL_RATES=0: the first part only)

import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { findChromium } from '../server/src/render/chromium-path.ts';
import { inSpan, logFields, timed } from '../server/src/telemetry/spans.ts';
import { startServiceProcess } from './service-process.ts';
import { SECONDS } from './cells.ts';
import { perSecond } from './receipts.ts';
import { isMain, printAlone } from './alone.ts';

const CONCURRENCY = Number(process.env.BENCH_RECEIPT_CONCURRENCY ?? 2);
const ROUNDS = 3;

/** Nanoseconds per call of the helpers with telemetry off: the fastest of 7 interleaved rounds (load only slows a round down). */
async function offPathNs(): Promise<string> {
  const calls = 50_000;
  const work = () => Promise.resolve(1);
  const cases = [
    ['await work() alone (the baseline)', () => work()],
    ['await inSpan(work)', () => inSpan('x', {}, work)],
    ['await timed(work)', () => timed('x', {}, work)],
    ['logFields() (each log line)', () => logFields()],
  ] as const;
  const best = cases.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < 7; round++) {
    for (const [index, [, run]] of cases.entries()) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) await run();
      best[index] = Math.min(best[index]!, Number(process.hrtime.bigint() - started) / calls);
    }
  }
  const rows = cases.map(([name], index) => `| ${name} | ${best[index]!.toFixed(0)} |`);
  return ['OpenTelemetry off: the helpers a render calls, ns per call (fastest of 7 rounds of 50,000)', '', '| call | ns |', '|---|---|', ...rows].join('\n');
}

/** Renders per second without and with an OTLP endpoint. */
async function onOff(): Promise<string> {
  const sink = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  sink.listen(0, '127.0.0.1');
  await once(sink, 'listening');
  const endpoint = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  const executable = await findChromium(process.env.CHROME_PATH ?? '');
  const off = await startServiceProcess({ chromePath: executable.path });
  const on = await startServiceProcess({ chromePath: executable.path, env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_METRIC_EXPORT_INTERVAL: '1000' } });
  try {
    const runs: { off: number[]; on: number[]; offCpu: number[]; onCpu: number[] } = { off: [], on: [], offCpu: [], onCpu: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const a = await perSecond(off, { wait_until: 'load' }, SECONDS);
      const b = await perSecond(on, { wait_until: 'load' }, SECONDS);
      runs.off.push(a.perSecond);
      runs.offCpu.push(a.cpuMs);
      runs.on.push(b.perSecond);
      runs.onCpu.push(b.cpuMs);
      console.error(
        `  otel round ${round + 1}: off ${a.perSecond.toFixed(2)}/s ${a.cpuMs.toFixed(1)} CPU ms, on ${b.perSecond.toFixed(2)}/s ${b.cpuMs.toFixed(1)} CPU ms`,
      );
    }
    const mean = (values: number[]) => values.reduce((total, value) => total + value, 0) / values.length;
    return [
      `The invoice, wait_until load, c=${CONCURRENCY}, ${ROUNDS} alternated rounds of ${SECONDS}s: a server without and one with OTEL_EXPORTER_OTLP_ENDPOINT (a loopback receiver)`,
      '',
      '| OTel off r/s | OTel on r/s | on / off | CPU ms per render off / on | CPU on / off |',
      '|---|---|---|---|---|',
      `| ${mean(runs.off).toFixed(2)} | ${mean(runs.on).toFixed(2)} | ${(mean(runs.on) / mean(runs.off)).toFixed(3)} | ${mean(runs.offCpu).toFixed(1)} / ${mean(runs.onCpu).toFixed(1)} | ${(mean(runs.onCpu) / mean(runs.offCpu)).toFixed(3)} |`,
    ].join('\n');
  } finally {
    await Promise.all([off.stop(), on.stop()]);
    sink.close();
  }
}

/** Both parts, as the bench prints them. */
export async function measureOtel(): Promise<string> {
  const off = await offPathNs();
  return process.env.BENCH_OTEL_RATES === '0' ? off : `${off}\n\n${await onOff()}`;
}

if (isMain(import.meta.url)) await printAlone(measureOtel);
