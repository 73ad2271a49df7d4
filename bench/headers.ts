// Bench: the 52-page report with a header and a footer that each show an image, drawn by Quire's
// options.header / options.footer (body print, one print of the instances, stamped on) beside the
// same report with Chromium's own header_template / footer_template (a data: URI image: the only
// kind Chromium's templates load), and the plain report. Same server, same run; the variants take
// turns in short rounds so load from elsewhere on the machine falls on both alike.
// Run: npx tsx bench/headers.ts   (the main bench runs it among its extras)

import { createCanvas } from '@napi-rs/canvas';
import { reportHtml } from './workloads.ts';
import type { ServiceProcess } from './service-process.ts';
import { processCpuMs, processTreeCpuMs } from './proc.ts';
import { SECONDS, timeRenders } from './cells.ts';
import { isMain, runBenchAlone } from './alone.ts';

const CONCURRENCY = Number(process.env.BENCH_HEADERS_CONCURRENCY ?? 2);
const ROUNDS = 3;

// A 120x40 PNG logo (a blue bar), inlined the same way for both.
const LOGO = logoDataUri();
const html = reportHtml(52);
const base = { wait_until: 'load' };
const chromiumHeader = `<div style="font-size:9pt;width:100%;margin:0 1cm;display:flex;justify-content:space-between"><img src="${LOGO}" style="height:20px"><span>Quarterly report</span></div>`;
const chromiumFooter = `<div style="font-size:9pt;width:100%;margin:0 1cm;display:flex;justify-content:space-between"><img src="${LOGO}" style="height:14px"><span>Page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>`;
const quireHeader = `<div style="display:flex;justify-content:space-between;align-items:center"><img src="${LOGO}" style="height:20px"><span>Quarterly report</span></div>`;
const quireFooter = `<div style="display:flex;justify-content:space-between;align-items:center"><img src="${LOGO}" style="height:14px"><span>Page {{page}} of {{pages}}</span></div>`;

const VARIANTS = [
  { name: 'report (no header)', body: { html, options: { ...base, margin: '2cm 1cm' } } },
  {
    name: "report + Chromium's header_template / footer_template",
    body: { html, options: { ...base, margin: '2cm 1cm', header_template: chromiumHeader, footer_template: chromiumFooter } },
  },
  // The same space: 1cm margins plus the boxes (measured from their content) is about 2cm.
  { name: 'report + options.header / options.footer', body: { html, options: { ...base, margin: '1cm', header: quireHeader, footer: quireFooter } } },
];

function logoDataUri(): string {
  const canvas = createCanvas(120, 40);
  const context = canvas.getContext('2d');
  context.fillStyle = '#1a5fb4';
  context.fillRect(0, 0, 120, 40);
  context.fillStyle = '#fff';
  context.fillRect(10, 10, 30, 20);
  return `data:image/png;base64,${canvas.toBuffer('image/png').toString('base64')}`;
}

interface Figures {
  renders: number;
  seconds: number;
  latencies: number[];
  /** CPU of the server and its browser, and of the server alone (the PDF worker threads included). */
  cpuMs: number;
  nodeCpuMs: number;
}

async function round(service: ServiceProcess, body: string, seconds: number, into: Figures): Promise<void> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${service.key}` };
  const once = async () => {
    const response = await fetch(`${service.url}/v1/pdf`, { method: 'POST', headers, body });
    if (response.status !== 200) throw new Error(`answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  const [tree0, node0] = [processTreeCpuMs(service.pid), processCpuMs(service.pid)];
  const { latencies, elapsedMs } = await timeRenders(once, CONCURRENCY, seconds, 0);
  into.latencies.push(...latencies);
  into.renders += latencies.length;
  into.seconds += elapsedMs / 1000;
  into.cpuMs += processTreeCpuMs(service.pid) - tree0;
  into.nodeCpuMs += processCpuMs(service.pid) - node0;
}

/** The headers table, measured on a running service. */
export async function measureHeaders(service: ServiceProcess): Promise<string> {
  const bodies = VARIANTS.map((variant) => JSON.stringify(variant.body));
  const figures: Figures[] = VARIANTS.map(() => ({ renders: 0, seconds: 0, latencies: [], cpuMs: 0, nodeCpuMs: 0 }));
  // Warm: every worker thread and lane the variant uses.
  for (const body of bodies) await round(service, body, 0.5, { renders: 0, seconds: 0, latencies: [], cpuMs: 0, nodeCpuMs: 0 });
  for (let r = 0; r < ROUNDS; r++) for (const [index, body] of bodies.entries()) await round(service, body, SECONDS / ROUNDS, figures[index]!);
  const rate = (f: Figures) => f.renders / f.seconds;
  const p50 = (f: Figures) => [...f.latencies].sort((a, b) => a - b)[Math.floor(f.latencies.length / 2)]!;
  const chromium = figures[1]!;
  const rows = [
    `Headers and footers with an image on the 52-page report (c=${CONCURRENCY}, ${SECONDS}s per variant in ${ROUNDS} alternating rounds)`,
    '',
    "| variant | r/s | p50 ms | r/s vs Chromium's templates | CPU ms/render (of it Node) |",
    '|---|---|---|---|---|',
  ];
  VARIANTS.forEach((variant, index) => {
    const f = figures[index]!;
    const cpu = `${(f.cpuMs / f.renders).toFixed(0)} (${(f.nodeCpuMs / f.renders).toFixed(0)})`;
    rows.push(`| ${variant.name} | ${rate(f).toFixed(2)} | ${p50(f).toFixed(0)} | ${(rate(f) / rate(chromium)).toFixed(2)} | ${cpu} |`);
    console.error(`  headers ${variant.name}: ${rate(f).toFixed(2)}/s p50 ${p50(f).toFixed(0)} ms`);
  });
  return rows.join('\n');
}

if (isMain(import.meta.url)) await runBenchAlone(measureHeaders);
