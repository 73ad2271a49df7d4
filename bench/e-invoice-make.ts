// Bench: POST /v1/einvoice, the XML alone from a JSON invoice of 10 lines (issue 41's target: under
// 20 ms p50), one call at a time against the running service, for each format's syntax and rule set.

import { readFileSync } from 'node:fs';
import type { ServiceProcess } from './service-process.ts';

const CALLS = Number(process.env.BENCH_EINVOICE_MAKE_CALLS ?? 200);
/** Calls not counted first: the route's code is compiled by V8 on its first hundred or so calls (p50 51 ms on the first 100, 14 ms after). */
const WARM_UP = 100;
const FORMATS = ['en16931-cii', 'xrechnung-ubl', 'peppol-ubl'];

/** docs/examples/einvoice-simple.json with its first line repeated to 10 lines (the totals are computed). */
function tenLineInvoice(): Record<string, unknown> {
  const invoice = JSON.parse(readFileSync(new URL('../docs/examples/einvoice-simple.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  const [line] = invoice.lines as Record<string, unknown>[];
  return { ...invoice, lines: Array.from({ length: 10 }, (_, index) => ({ ...line, name: `Item ${index + 1}` })) };
}

export async function measureMake(service: ServiceProcess): Promise<string> {
  const headers = { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' };
  const invoice = tenLineInvoice();
  const rows = [
    `POST /v1/einvoice, a 10-line invoice, one call at a time (${CALLS} calls a format after ${WARM_UP} uncounted)`,
    '',
    '| format | p50 ms | p95 ms |',
    '|---|---|---|',
  ];
  for (const format of FORMATS) {
    const body = JSON.stringify({ format, invoice });
    const times: number[] = [];
    for (let call = 0; call < WARM_UP + CALLS; call++) {
      const start = performance.now();
      const response = await fetch(`${service.url}/v1/einvoice`, { method: 'POST', headers, body });
      if (response.status !== 200) throw new Error(`POST /v1/einvoice ${format} answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
      if (call >= WARM_UP) times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const at = (share: number) => times[Math.min(times.length - 1, Math.floor(times.length * share))]!.toFixed(1);
    rows.push(`| ${format} | ${at(0.5)} | ${at(0.95)} |`);
  }
  return rows.join('\n');
}
