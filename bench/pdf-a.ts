// Bench: what PDF/A costs beside the plain render of the same page, on the same server in the same
// run: the invoice as PDF/A-3b and the 52-page report as PDF/A-2b (each made on the PDF threads and
// checked against its level's rules before it is answered). Ratios of renders per second and p50.
// Run: npx tsx bench/pdf-a.ts   (the main bench runs it among its extras)

import { invoiceHtml, reportHtml } from './workloads.ts';
import type { ServiceProcess } from './service-process.ts';
import { SECONDS } from './cells.ts';
import { isMain, runBenchAlone } from './alone.ts';
import { measure } from './toolbox.ts';

const CONCURRENCY = Number(process.env.BENCH_PDFA_CONCURRENCY ?? 2);
const base = { wait_until: 'load' };

const PAIRS = [
  { name: 'invoice', html: invoiceHtml(), level: 'PDF/A-3b' },
  { name: '52-page report', html: reportHtml(), level: 'PDF/A-2b' },
];

/** The PDF/A table, measured on a running service. */
export async function measurePdfA(service: ServiceProcess): Promise<string> {
  const rows = [
    `PDF/A beside the plain render of the same page (c=${CONCURRENCY}, ${SECONDS}s per row)`,
    '',
    '| workload | plain r/s | PDF/A r/s | r/s vs plain | plain p50 ms | PDF/A p50 ms |',
    '|---|---|---|---|---|---|',
  ];
  for (const pair of PAIRS) {
    const plain = await measure(service, '/v1/pdf', JSON.stringify({ html: pair.html, options: base }), SECONDS, CONCURRENCY);
    const archival = await measure(service, '/v1/pdf', JSON.stringify({ html: pair.html, options: { ...base, pdf_a: pair.level } }), SECONDS, CONCURRENCY);
    rows.push(
      `| ${pair.name} as ${pair.level} | ${plain.perSecond.toFixed(2)} | ${archival.perSecond.toFixed(2)} | ${(archival.perSecond / plain.perSecond).toFixed(2)} | ${plain.p50.toFixed(0)} | ${archival.p50.toFixed(0)} |`,
    );
    console.error(`  pdf_a ${pair.name}: plain ${plain.perSecond.toFixed(2)}/s, ${pair.level} ${archival.perSecond.toFixed(2)}/s`);
  }
  return rows.join('\n');
}

if (isMain(import.meta.url)) await runBenchAlone(measurePdfA);
