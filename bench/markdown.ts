// Bench: a README-sized Markdown page (bench/workloads.ts readmeMarkdown) through POST /v1/pdf as
// markdown, beside the very same page given as html (the HTML the conversion makes of it), on the
// same server in the same run; and the conversion alone, in this process. The ratio is what the
// Markdown step adds to a render.
// Run: npx tsx bench/markdown.ts   (the main bench runs it among its extras)

import { markdownToHtml } from '../server/src/services/markdown/markdown.ts';
import { readmeMarkdown } from './workloads.ts';
import type { ServiceProcess } from './service-process.ts';
import { processTreeCpuMs } from './proc.ts';
import { SECONDS, timeRenders } from './cells.ts';
import { isMain, runBenchAlone } from './alone.ts';

const CONCURRENCY = (process.env.BENCH_MARKDOWN_CONCURRENCY ?? '1,2').split(',').map(Number);
const ROUNDS = 5;

interface Figures {
  perSecond: number;
  p50: number;
  /** CPU of the server and its Chromium per render: steadier than rates on a busy machine. */
  cpuMs: number;
}

/** Latencies of `concurrency` workers posting body for `seconds`, and the wall time they took. */
function run(service: ServiceProcess, body: string, concurrency: number, seconds: number): Promise<{ latencies: number[]; elapsedMs: number }> {
  const once = async () => {
    const response = await service.render(body);
    if (response.status !== 200) throw new Error(`POST /v1/pdf answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  return timeRenders(once, concurrency, seconds);
}

/**
 * Two bodies measured in alternating slices (ROUNDS each, SECONDS in all per body), so load
 * from elsewhere on the machine falls on both alike.
 */
export async function measurePair(service: ServiceProcess, bodies: [string, string], concurrency: number): Promise<[Figures, Figures]> {
  const totals = bodies.map(() => ({ latencies: [] as number[], elapsed: 0, cpu: 0 }));
  for (const body of bodies) await run(service, body, concurrency, 0);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, body] of bodies.entries()) {
      const cpu0 = processTreeCpuMs(service.pid);
      const slice = await run(service, body, concurrency, SECONDS / ROUNDS);
      totals[index]!.cpu += processTreeCpuMs(service.pid) - cpu0;
      totals[index]!.latencies.push(...slice.latencies);
      totals[index]!.elapsed += slice.elapsedMs;
    }
  }
  return totals.map(({ latencies, elapsed, cpu }) => {
    latencies.sort((a, b) => a - b);
    return { perSecond: latencies.length / (elapsed / 1000), p50: latencies[Math.floor(latencies.length / 2)]!, cpuMs: cpu / latencies.length };
  }) as [Figures, Figures];
}

/** The conversion's own cost: p50 of markdownToHtml on the page, in milliseconds. */
function conversionMs(markdown: string): number {
  for (let i = 0; i < 20; i++) markdownToHtml(markdown);
  const times = Array.from({ length: 200 }, () => {
    const t0 = performance.now();
    markdownToHtml(markdown);
    return performance.now() - t0;
  }).sort((a, b) => a - b);
  return times[100]!;
}

/** The Markdown table, measured on a running service. */
export async function measureMarkdown(service: ServiceProcess): Promise<string> {
  const markdown = readmeMarkdown();
  const html = markdownToHtml(markdown);
  const options = { wait_until: 'load' };
  const rows = [
    `Markdown: a README-sized page (${(markdown.length / 1024).toFixed(1)} KB of Markdown, 8 code blocks) beside the same page as html (${SECONDS}s per row; conversion alone: ${conversionMs(markdown).toFixed(2)} ms p50)`,
    '',
    '| c | markdown r/s | html r/s | markdown / html r/s | markdown p50 ms | html p50 ms | CPU ms/render markdown / html |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const concurrency of CONCURRENCY) {
    const [asMarkdown, asHtml] = await measurePair(service, [JSON.stringify({ markdown, options }), JSON.stringify({ html, options })], concurrency);
    rows.push(
      `| ${concurrency} | ${asMarkdown.perSecond.toFixed(2)} | ${asHtml.perSecond.toFixed(2)} | ${(asMarkdown.perSecond / asHtml.perSecond).toFixed(2)} | ${asMarkdown.p50.toFixed(0)} | ${asHtml.p50.toFixed(0)} | ${asMarkdown.cpuMs.toFixed(0)} / ${asHtml.cpuMs.toFixed(0)} |`,
    );
    console.error(`  markdown c=${concurrency}: ${asMarkdown.perSecond.toFixed(2)}/s vs html ${asHtml.perSecond.toFixed(2)}/s`);
  }
  return rows.join('\n');
}

if (isMain(import.meta.url)) await runBenchAlone(measureMarkdown);
