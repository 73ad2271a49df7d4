// Bench: an invoice as a Factur-X e-invoice beside the same invoice plain, on the same server in
// the same run (issue 31's target: at least 0.7x the plain render's throughput): the XML written
// from JSON and checked against its XSD, the XML given as it is, one 100 KB attachment, and, when
// the server has the PDF/A step, the e-invoice as PDF/A-3b (else that row says it was left out).
// Run: npx tsx bench/e-invoice.ts   (the main bench runs it among its extras)

import { readFileSync } from 'node:fs';
import { invoiceHtml } from './workloads.ts';
import type { ServiceProcess } from './service-process.ts';
import { measure as measureRenders, SECONDS } from './cells.ts';
import { isMain, runBenchAlone } from './alone.ts';

const CONCURRENCY = Number(process.env.BENCH_EINVOICE_CONCURRENCY ?? 2);
const fixture = (name: string) => readFileSync(new URL(`../tests/fixtures/${name}`, import.meta.url), 'utf8');

const html = invoiceHtml();
const base = { wait_until: 'load' };
const invoice = JSON.parse(readFileSync(new URL('../docs/examples/invoice.json', import.meta.url), 'utf8')) as unknown;
const eInvoice = { profile: 'EN 16931', invoice };
const VARIANTS: { name: string; options: object }[] = [
  { name: 'invoice (plain)', options: base },
  { name: '+ e_invoice EN 16931 from JSON (XSD checked)', options: { ...base, e_invoice: eInvoice } },
  { name: '+ e_invoice MINIMUM XML given', options: { ...base, e_invoice: { profile: 'MINIMUM', xml: fixture('factur-x-minimum.xml') } } },
  { name: '+ one 100 KB attachment', options: { ...base, attachments: [{ filename: 'data.bin', content: Buffer.alloc(100 * 1024, 7).toString('base64') }] } },
  { name: '+ e_invoice EN 16931 as PDF/A-3b', options: { ...base, e_invoice: eInvoice, pdf_a: '3b' } },
];

/** Rounds: every variant is measured once per round, in turn, so a busy machine's drift falls on all of them alike. */
const ROUNDS = Number(process.env.BENCH_EINVOICE_ROUNDS ?? 3);

/** The e-invoice table, measured on a running service. */
export async function measureEInvoice(service: ServiceProcess): Promise<string> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${service.key}` };
  const rows = [
    `E-invoices beside the plain invoice render (c=${CONCURRENCY}, ${ROUNDS} interleaved rounds of ${SECONDS}s per row)`,
    '',
    '| variant | r/s | p50 ms | r/s vs plain | p50 vs plain |',
    '|---|---|---|---|---|',
  ];
  const runs = new Map<string, () => Promise<void>>();
  const leftOut = new Map<string, string>();
  for (const variant of VARIANTS) {
    const body = JSON.stringify({ html, options: variant.options });
    const once = async () => {
      const response = await fetch(`${service.url}/v1/pdf`, { method: 'POST', headers, body });
      if (response.status !== 200) throw new Error(`answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    };
    try {
      await Promise.all(Array.from({ length: CONCURRENCY }, once));
      runs.set(variant.name, once);
    } catch (error) {
      // The PDF/A step is another branch's; a server without it refuses pdf_a on a render.
      leftOut.set(variant.name, (error as Error).message.slice(0, 120).replaceAll('|', '/'));
    }
  }
  const figures = new Map<string, { perSecond: number[]; p50: number[] }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, once] of runs) {
      const { perSecond, p50 } = await measureRenders(once, CONCURRENCY, SECONDS);
      const entry = figures.get(name) ?? { perSecond: [], p50: [] };
      entry.perSecond.push(perSecond);
      entry.p50.push(p50);
      figures.set(name, entry);
    }
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const plain = figures.get(VARIANTS[0]!.name)!;
  for (const variant of VARIANTS) {
    const entry = figures.get(variant.name);
    if (!entry) {
      rows.push(`| ${variant.name} | left out: ${leftOut.get(variant.name)} | | | |`);
      continue;
    }
    const [perSecond, p50] = [mean(entry.perSecond), mean(entry.p50)];
    rows.push(
      `| ${variant.name} | ${perSecond.toFixed(2)} | ${p50.toFixed(0)} | ${(perSecond / mean(plain.perSecond)).toFixed(2)} | ${(p50 / mean(plain.p50)).toFixed(2)} |`,
    );
    console.error(`  e-invoice ${variant.name}: ${perSecond.toFixed(2)}/s p50 ${p50.toFixed(0)} ms`);
  }
  return rows.join('\n');
}

if (isMain(import.meta.url)) await runBenchAlone(measureEInvoice);
