// Bench: what the PDF toolbox costs beside a plain render of the invoice, on the same server in
// the same run: + metadata + outline, + encrypt, + watermark, and a merge of 20 rendered
// invoices (beside 20 plain renders). Reported as ratios of renders per second and of p50.
// Run: npx tsx bench/toolbox.ts   (the main bench runs it among its extras)

import { invoiceHtml } from './workloads.ts';
import type { ServiceProcess } from './service-process.ts';
import { measure as measureRenders, SECONDS } from './cells.ts';
import { isMain, runBenchAlone } from './alone.ts';

const CONCURRENCY = Number(process.env.BENCH_TOOLBOX_CONCURRENCY ?? 2);
const MERGE_SOURCES = 20;

export interface Figures {
  perSecond: number;
  p50: number;
}

const html = invoiceHtml();
const base = { wait_until: 'load' };
const VARIANTS: { name: string; path: string; body: unknown }[] = [
  { name: 'invoice (plain)', path: '/v1/pdf', body: { html, options: base } },
  { name: '+ metadata + outline', path: '/v1/pdf', body: { html, options: { ...base, metadata: { author: 'Bench', keywords: ['invoice'] }, outline: true } } },
  { name: '+ encrypt (AES-256)', path: '/v1/pdf', body: { html, options: { ...base, encrypt: { owner_password: 'owner', user_password: 'user' } } } },
  { name: '+ watermark (text)', path: '/v1/pdf', body: { html, options: { ...base, watermark: { text: 'CONFIDENTIAL' } } } },
  {
    name: `merge of ${MERGE_SOURCES} rendered invoices`,
    path: '/v1/pdf/merge',
    body: { sources: Array.from({ length: MERGE_SOURCES }, () => ({ html, options: base })) },
  },
];

/** Renders per second and p50 of one call, its worker threads warmed first. */
export async function measure(service: ServiceProcess, path: string, body: string, seconds: number, concurrency: number): Promise<Figures> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${service.key}` };
  const once = async () => {
    const response = await fetch(service.url + path, { method: 'POST', headers, body });
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  // Warm every worker thread the variant may use (each starts on first use).
  await Promise.all(Array.from({ length: concurrency }, once));
  const { perSecond, p50 } = await measureRenders(once, concurrency, seconds);
  return { perSecond, p50 };
}

/** The toolbox table, measured on a running service. */
export async function measureToolbox(service: ServiceProcess): Promise<string> {
  const rows = [
    `PDF toolbox beside a plain invoice render (c=${CONCURRENCY}, ${SECONDS}s per row)`,
    '',
    '| variant | r/s | p50 ms | r/s vs plain | p50 vs plain |',
    '|---|---|---|---|---|',
  ];
  let plain: Figures | undefined;
  for (const variant of VARIANTS) {
    const figures = await measure(service, variant.path, JSON.stringify(variant.body), SECONDS, CONCURRENCY);
    plain ??= figures;
    const isMerge = variant.path.endsWith('/merge');
    // A merge is one call for 20 renders: compare it with 20 plain renders.
    const perSecondRatio = isMerge ? (figures.perSecond * MERGE_SOURCES) / plain.perSecond : figures.perSecond / plain.perSecond;
    const p50Ratio = isMerge ? figures.p50 / (plain.p50 * MERGE_SOURCES) : figures.p50 / plain.p50;
    rows.push(
      `| ${variant.name} | ${figures.perSecond.toFixed(2)} | ${figures.p50.toFixed(0)} | ${perSecondRatio.toFixed(2)}${isMerge ? ' (per source)' : ''} | ${p50Ratio.toFixed(2)}${isMerge ? ` (vs ${MERGE_SOURCES} plain)` : ''} |`,
    );
    console.error(`  toolbox ${variant.name}: ${figures.perSecond.toFixed(2)}/s p50 ${figures.p50.toFixed(0)} ms`);
  }
  return rows.join('\n');
}

if (isMain(import.meta.url)) await runBenchAlone(measureToolbox);
