// Bench: an invoice as a Factur-X e-invoice beside the same invoice plain, on the same server in
// the same run (issue 41's target: at least 0.7x the plain render's throughput), and the cost of
// each step an e-invoice takes as its own row: the attachment (the XML's size), PDF/A-3b, the two
// together, then the e-invoice from JSON (our rules), from XML given (XSD and rules), and MINIMUM
// (XSD only); then the validation alone, in this process (e-invoice-validation.ts).
// Run: npx tsx bench/e-invoice.ts   (the main bench runs it among its extras)

import { readFileSync } from 'node:fs';
import os from 'node:os';
import { invoiceHtml } from './workloads.ts';
import type { ServiceProcess } from './service-process.ts';
import { measure as measureRenders, SECONDS } from './cells.ts';
import { isMain, runBenchAlone } from './alone.ts';
import { measureValidation } from './e-invoice-validation.ts';
import { measureMake } from './e-invoice-make.ts';
import { invoiceXml } from '../server/src/einvoice/e-invoice.ts';

const CONCURRENCY = Number(process.env.BENCH_EINVOICE_CONCURRENCY ?? 2);
const fixture = (name: string) => readFileSync(new URL(`../tests/fixtures/${name}`, import.meta.url), 'utf8');

const html = invoiceHtml();
const base = { wait_until: 'load' };
const invoice = JSON.parse(readFileSync(new URL('../docs/examples/invoice.json', import.meta.url), 'utf8')) as unknown;
const eInvoice = { profile: 'EN 16931' as const, invoice };
const FIVE_KB = Buffer.alloc(5 * 1024, 'x').toString('base64');
const VARIANTS: { name: string; options: object }[] = [
  { name: 'invoice (plain)', options: base },
  { name: '+ one 5 KB attachment (the attachment step)', options: { ...base, attachments: [{ filename: 'data.xml', content: FIVE_KB }] } },
  { name: '+ PDF/A-3b (the PDF/A step)', options: { ...base, pdf_a: '3b' } },
  { name: '+ 5 KB attachment + PDF/A-3b (both steps, no check)', options: { ...base, pdf_a: '3b', attachments: [{ filename: 'data.xml', content: FIVE_KB }] } },
  { name: '+ e_invoice EN 16931 from JSON (rules; PDF/A-3b)', options: { ...base, e_invoice: eInvoice } },
  {
    name: '+ e_invoice EN 16931 XML given (XSD + rules; PDF/A-3b)',
    options: { ...base, e_invoice: { profile: 'EN 16931', xml: invoiceXml(eInvoice, undefined, 'e_invoice') } },
  },
  { name: '+ e_invoice MINIMUM XML given (XSD; PDF/A-3b)', options: { ...base, e_invoice: { profile: 'MINIMUM', xml: fixture('factur-x-minimum.xml') } } },
];

/** Rounds: every variant is measured once per round, in turn, so a busy machine's drift falls on all of them alike. */
const ROUNDS = Number(process.env.BENCH_EINVOICE_ROUNDS ?? 3);

/** The e-invoice table, measured on a running service. */
export async function measureEInvoice(service: ServiceProcess): Promise<string> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${service.key}` };
  const rows = [
    `Load average ${loadAverage()} at the start`,
    '',
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
  rows[0] += `, ${loadAverage()} at the end`;
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
  rows.push('', await measureValidation(), '', await measureMake(service));
  return rows.join('\n');
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');
}

if (isMain(import.meta.url)) await runBenchAlone(measureEInvoice);
