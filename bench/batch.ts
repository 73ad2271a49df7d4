// Background batch throughput: a 250-item invoice batch, end to end from the 202 to completed
// (every item rendered, stored durably and charged), in documents per second, beside the engine
// limit measured in the same run (warm puppeteer pages, RENDER_CONCURRENCY of them, rendering the
// same invoice with nothing stored). Also the latency of an interactive POST /v1/pdf while such a
// batch runs, against the same render on an idle server.
//
// Settings (environment): BENCH_SECONDS for the engine limit (default 5), BENCH_BATCH_ITEMS
// (default 250), RENDER_CONCURRENCY (default 2, passed to the server too).

import { findChromium } from '../server/src/render/chromium-path.ts';
import { DEFAULT_PDF_OPTIONS } from '../server/src/render/pdf-options.ts';
import { toPrintOptions } from './print-options.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';
import { invoiceHtml } from './workloads.ts';
import { isMain, printAlone } from './alone.ts';
import { closeBrowser, launch, timeRenders } from './cells.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ITEMS = Number(process.env.BENCH_BATCH_ITEMS ?? 250);
const CONCURRENCY = Number(process.env.RENDER_CONCURRENCY ?? 2);
const INVOICE = invoiceHtml();
const OPTIONS = { wait_until: 'load' };

interface Latency {
  p50: number;
  p95: number;
  count: number;
}

/** The engine limit: warm pages rendering the invoice back to back, CONCURRENCY at once. */
async function engineLimit(executable: { path: string; isHeadlessShell: boolean }): Promise<number> {
  const launched = await launch(executable.path, executable.isHeadlessShell);
  try {
    const print = toPrintOptions({ ...DEFAULT_PDF_OPTIONS });
    const pages = await Promise.all(Array.from({ length: CONCURRENCY }, () => launched.browser.newPage()));
    const once = async (worker: number) => {
      await pages[worker]!.setContent(INVOICE, { waitUntil: 'load' });
      await pages[worker]!.pdf(print);
    };
    await Promise.all(pages.map((_, worker) => once(worker)));
    const { latencies, elapsedMs } = await timeRenders(once, CONCURRENCY, SECONDS, 0);
    return latencies.length / (elapsedMs / 1000);
  } finally {
    await closeBrowser(launched);
  }
}

async function post(service: ServiceProcess, route: string, body: unknown): Promise<Response> {
  return fetch(service.url + route, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function interactiveOnce(service: ServiceProcess): Promise<number> {
  const started = performance.now();
  const response = await service.render(JSON.stringify({ html: INVOICE, options: OPTIONS }));
  if (response.status !== 200) throw new Error(`render answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
  return performance.now() - started;
}

function summarize(latencies: number[]): Latency {
  const sorted = [...latencies].sort((a, b) => a - b);
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: pick(0.5), p95: pick(0.95), count: sorted.length };
}

/**
 * Posts one ITEMS-item invoice batch and waits for it to complete; with `probe`, sends one
 * interactive render at a time meanwhile (a pause between them) and returns their latencies.
 */
async function runBatch(service: ServiceProcess, probe: boolean): Promise<{ docsPerSecond: number; seconds: number; latencies: number[] }> {
  const requests = Array.from({ length: ITEMS }, (_, i) => ({ html: INVOICE, filename: `invoice-${i}.pdf` }));
  const accepted = await post(service, '/v1/pdf/batch', { requests, options: OPTIONS, async: true });
  const acceptedAt = Date.now();
  if (accepted.status !== 202) throw new Error(`batch answered ${accepted.status}: ${await accepted.text()}`);
  const { batch_id: id } = (await accepted.json()) as { batch_id: string };
  let batch: { status: string; succeeded: number; failed: number; completed_at: string | null } | undefined;
  const latencies: number[] = [];
  let done = false;
  const probing = (async () => {
    while (probe && !done) {
      latencies.push(await interactiveOnce(service));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  while (batch?.status !== 'completed') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const response = await fetch(`${service.url}/v1/pdf/batch/${id}`, { headers: { authorization: `Bearer ${service.key}` } });
    batch = (await response.json()) as typeof batch;
  }
  done = true;
  await probing;
  if (batch.succeeded !== ITEMS) throw new Error(`batch ended with ${batch.failed} failed items`);
  // completed_at is the server's clock, on this machine: no polling interval in the figure.
  const seconds = (Date.parse(batch.completed_at!) - acceptedAt) / 1000;
  return { docsPerSecond: ITEMS / seconds, seconds, latencies };
}

/** The service's own POST /v1/pdf rate at CONCURRENCY (nothing stored), for comparison. */
async function interactiveRate(service: ServiceProcess): Promise<number> {
  const { latencies, elapsedMs } = await timeRenders(() => interactiveOnce(service).then(() => undefined), CONCURRENCY, SECONDS, 0);
  return latencies.length / (elapsedMs / 1000);
}

/** Runs the section on its own server and returns it as markdown. */
export async function measureBatch(): Promise<string> {
  const executable = await findChromium(process.env.CHROME_PATH ?? '');
  const service = await startServiceProcess({ chromePath: executable.path, env: { RENDER_CONCURRENCY: String(CONCURRENCY) } });
  try {
    const idle: number[] = [];
    for (let i = 0; i < 3; i++) await interactiveOnce(service);
    for (let i = 0; i < 20; i++) idle.push(await interactiveOnce(service));
    // The limit is taken before and after the batches and averaged: this machine's speed drifts.
    const limitBefore = await engineLimit(executable);
    const service2 = await interactiveRate(service);
    const alone = await runBatch(service, false);
    const probed = await runBatch(service, true);
    const limitAfter = await engineLimit(executable);
    const limit = (limitBefore + limitAfter) / 2;
    const idleLatency = summarize(idle);
    const busyLatency = summarize(probed.latencies);
    console.error(
      `  batch: ${alone.docsPerSecond.toFixed(1)} docs/s, service ${service2.toFixed(1)}/s, engine limit ${limit.toFixed(1)}/s; interactive p50 ${idleLatency.p50.toFixed(0)} ms idle, ${busyLatency.p50.toFixed(0)} ms during a batch`,
    );
    return [
      `Background batch: ${ITEMS} invoices, 202 to completed (each stored and charged), RENDER_CONCURRENCY ${CONCURRENCY}`,
      '',
      '| | docs/s | seconds | / engine limit |',
      '|---|---|---|---|',
      `| batch alone | ${alone.docsPerSecond.toFixed(1)} | ${alone.seconds.toFixed(1)} | ${(alone.docsPerSecond / limit).toFixed(2)} |`,
      `| batch with interactive renders | ${probed.docsPerSecond.toFixed(1)} | ${probed.seconds.toFixed(1)} | ${(probed.docsPerSecond / limit).toFixed(2)} |`,
      `| interactive POST /v1/pdf, ${CONCURRENCY} at a time, nothing stored | ${service2.toFixed(1)} | | ${(service2 / limit).toFixed(2)} |`,
      `| engine limit (${CONCURRENCY} warm pages, nothing stored; mean of ${limitBefore.toFixed(1)} before and ${limitAfter.toFixed(1)} after) | ${limit.toFixed(1)} | | 1.00 |`,
      '',
      '| interactive POST /v1/pdf (invoice) | p50 ms | p95 ms | renders |',
      '|---|---|---|---|',
      `| idle server | ${idleLatency.p50.toFixed(0)} | ${idleLatency.p95.toFixed(0)} | ${idleLatency.count} |`,
      `| during the batch | ${busyLatency.p50.toFixed(0)} | ${busyLatency.p95.toFixed(0)} | ${busyLatency.count} |`,
    ].join('\n');
  } finally {
    await service.stop();
  }
}

// `npx tsx bench/batch.ts` runs this section alone.
if (isMain(import.meta.url)) await printAlone(measureBatch);
