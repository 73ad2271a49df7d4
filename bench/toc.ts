// Bench: the 40-page Markdown report of the TOC tests (tests/helpers/toc-pdf.ts) through POST
// /v1/pdf with options.toc beside the very same report without, on the same server in the same
// run, measured in alternating slices (markdown.ts measurePair). The goal (issue 43): a TOC costs
// at most one extra layout pass, so its render takes at most about twice the plain one.
// Run: npx tsx bench/toc.ts   (the main bench runs it among its extras)

import { reportMarkdown } from '../tests/helpers/toc-pdf.ts';
import type { ServiceProcess } from './service-process.ts';
import { SECONDS } from './cells.ts';
import { isMain, runBenchAlone } from './alone.ts';
import { measurePair } from './markdown.ts';

const CONCURRENCY = (process.env.BENCH_TOC_CONCURRENCY ?? '1,2').split(',').map(Number);

/** The TOC table, measured on a running service. */
export async function measureToc(service: ServiceProcess): Promise<string> {
  const markdown = reportMarkdown();
  const options = { wait_until: 'load' };
  const rows = [
    `Table of contents: the 40-page Markdown report (48 headings, depth 2) with options.toc beside it without (${SECONDS}s per row; goal: TOC / plain CPU <= 2, one extra layout pass)`,
    '',
    '| c | toc r/s | plain r/s | toc / plain r/s | toc p50 ms | plain p50 ms | CPU ms/render toc / plain | CPU ratio |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const concurrency of CONCURRENCY) {
    const bodies: [string, string] = [JSON.stringify({ markdown, options: { ...options, toc: { depth: 2 } } }), JSON.stringify({ markdown, options })];
    const [toc, plain] = await measurePair(service, bodies, concurrency);
    rows.push(
      `| ${concurrency} | ${toc.perSecond.toFixed(2)} | ${plain.perSecond.toFixed(2)} | ${(toc.perSecond / plain.perSecond).toFixed(2)} | ${toc.p50.toFixed(0)} | ${plain.p50.toFixed(0)} | ${toc.cpuMs.toFixed(0)} / ${plain.cpuMs.toFixed(0)} | ${(toc.cpuMs / plain.cpuMs).toFixed(2)} |`,
    );
    console.error(`  toc c=${concurrency}: ${toc.perSecond.toFixed(2)}/s vs plain ${plain.perSecond.toFixed(2)}/s`);
  }
  return rows.join('\n');
}

if (isMain(import.meta.url)) await runBenchAlone(measureToc);
