// Bench: what the PDF toolbox costs beside a plain render of the invoice, on the same server in
// the same run: + metadata + outline, + encrypt, + watermark, and a merge of 20 rendered
// invoices (beside 20 plain renders). Reported as ratios of renders per second and of p50.
// Run: npx tsx bench/toolbox.ts   (the main bench runs it among its extras)

import { pathToFileURL } from 'node:url';
import { findChromium } from '../server/src/render/chromium-path.ts';
import { invoiceHtml } from './workloads.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_TOOLBOX_CONCURRENCY ?? 2);
const MERGE_SOURCES = 20;

interface Figures {
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

async function measure(service: ServiceProcess, path: string, body: string, seconds: number, concurrency: number): Promise<Figures> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${service.key}` };
  const once = async () => {
    const response = await fetch(service.url + path, { method: 'POST', headers, body });
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  // Warm every worker thread the variant may use (each starts on first use).
  await Promise.all(Array.from({ length: concurrency }, once));
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until || latencies.length < concurrency * 2) {
        const t0 = performance.now();
        await once();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { perSecond: latencies.length / ((performance.now() - started) / 1000), p50: latencies[Math.floor(latencies.length / 2)]! };
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const executable = await findChromium(process.env.CHROME_PATH ?? '');
  const service = await startServiceProcess({ chromePath: executable.path });
  try {
    console.log(await measureToolbox(service));
  } finally {
    await service.stop();
  }
}
