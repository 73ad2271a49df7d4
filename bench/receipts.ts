// Bench: what a render receipt costs (issue 25: within 5% of the render's throughput with it on,
// nothing with it off). The invoice on one server in one run, receipt off and on, alternated
// three times so a noisy neighbour hits both alike; reported as the ratio of renders per second
// and of CPU milliseconds per render (server and Chromium together: steadier than rates on a busy
// machine, and on busy cores the rate follows it).
// Run: npx tsx bench/receipts.ts   (the main bench runs it among its extras)

import { invoiceHtml } from './workloads.ts';
import type { ServiceProcess } from './service-process.ts';
import { processTreeCpuMs } from './proc.ts';
import { measure, SECONDS } from './cells.ts';
import { isMain, runBenchAlone } from './alone.ts';

const CONCURRENCY = Number(process.env.BENCH_RECEIPT_CONCURRENCY ?? 2);
const ROUNDS = 3;

const html = invoiceHtml();

/** The invoice's renders per second, median ms and CPU ms per render (server and Chromium) on `service`, c=BENCH_RECEIPT_CONCURRENCY. */
export async function perSecond(service: ServiceProcess, options: object, seconds: number): Promise<{ perSecond: number; p50: number; cpuMs: number }> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${service.key}` };
  const body = JSON.stringify({ html, options });
  const once = async () => {
    const response = await fetch(`${service.url}/v1/pdf`, { method: 'POST', headers, body });
    if (response.status !== 200) throw new Error(`/v1/pdf answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, once));
  const cpu0 = processTreeCpuMs(service.pid);
  const result = await measure(once, CONCURRENCY, seconds, 0);
  const cpuMs = (processTreeCpuMs(service.pid) - cpu0) / result.renders;
  return { perSecond: result.perSecond, p50: result.p50, cpuMs };
}

/** The receipts table, measured on a running service. */
export async function measureReceipts(service: ServiceProcess): Promise<string> {
  const rows = [
    `Render receipts: the invoice with options.receipt off and on (c=${CONCURRENCY}, ${ROUNDS} alternated rounds of ${SECONDS}s each)`,
    '',
    '| options | receipt off r/s | receipt on r/s | r/s on / off | CPU ms per render off / on | CPU on / off | p50 off / on ms |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [name, options] of [
    ['wait_until load', { wait_until: 'load' }],
    ['defaults (networkidle0, virtual clock)', {}],
  ] as const) {
    const off: number[] = [];
    const on: number[] = [];
    const p50: [number[], number[]] = [[], []];
    const cpu: [number[], number[]] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      const a = await perSecond(service, { ...options, receipt: false }, SECONDS);
      const b = await perSecond(service, { ...options, receipt: true }, SECONDS);
      off.push(a.perSecond);
      on.push(b.perSecond);
      p50[0].push(a.p50);
      p50[1].push(b.p50);
      cpu[0].push(a.cpuMs);
      cpu[1].push(b.cpuMs);
    }
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    const [offRate, onRate] = [sum(off) / ROUNDS, sum(on) / ROUNDS];
    const [offCpu, onCpu] = [sum(cpu[0]) / ROUNDS, sum(cpu[1]) / ROUNDS];
    rows.push(
      `| ${name} | ${offRate.toFixed(2)} | ${onRate.toFixed(2)} | ${(onRate / offRate).toFixed(3)} | ${offCpu.toFixed(1)} / ${onCpu.toFixed(1)} | ${(onCpu / offCpu).toFixed(3)} | ${(sum(p50[0]) / ROUNDS).toFixed(0)} / ${(sum(p50[1]) / ROUNDS).toFixed(0)} |`,
    );
    console.error(
      `  receipts ${name}: off ${offRate.toFixed(2)}/s ${offCpu.toFixed(1)} CPU ms, on ${onRate.toFixed(2)}/s ${onCpu.toFixed(1)} CPU ms (r/s ${(onRate / offRate).toFixed(3)}, CPU ${(onCpu / offCpu).toFixed(3)})`,
    );
  }
  return rows.join('\n');
}

if (isMain(import.meta.url)) await runBenchAlone(measureReceipts);
