// Experiment: what PDF/UA-1 costs beside the plain tagged print (issue 42, target >= 0.8x): the
// bench's invoice and 52-page report printed tagged by puppeteer's page.pdf, then made UA
// (server/src/pdf/ua/make-ua.ts, which checks its own parse), in one process on the main thread;
// the checker on the saved bytes (check-ua.ts, as POST /v1/pdf/inspect would run it) is timed apart.
// Plain and UA runs alternate so machine load falls on both alike. Knobs: CHROME_PATH (the engine),
// BENCH_UA_RUNS (per workload, default 12). The report's first heading is an h2: the checker names
// 14-002 on it, which this prints and does not hide.
import { pino } from 'pino';
import { BrowserHost } from '../../server/src/render/browser-host.ts';
import { findChromium } from '../../server/src/render/chromium-path.ts';
import { checkUa } from '../../server/src/pdf/ua/check-ua.ts';
import { makeUa } from '../../server/src/pdf/ua/make-ua.ts';
import { invoiceHtml, reportHtml } from '../workloads.ts';

const RUNS = Number(process.env.BENCH_UA_RUNS ?? 12);
const host = new BrowserHost({ executable: await findChromium(process.env.CHROME_PATH ?? ''), env: {}, recycleAfter: 0, log: pino({ level: 'silent' }) });
await host.start();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function print(html: string): Promise<Uint8Array> {
  const page = await (await host.generation()).browser.newPage();
  try {
    await page.setContent(html, { waitUntil: 'load' });
    return await page.pdf({ format: 'A4', printBackground: true, tagged: true });
  } finally {
    await page.close();
  }
}

try {
  console.log(`engine ${host.executablePath || 'npm headless shell'} (${host.version}), ${RUNS} runs each`);
  console.log(
    '| workload | plain tagged ms | UA ms (print + fix with its check) | fix + check ms | check alone (own parse) ms | UA vs plain (throughput) | failed conditions |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, html] of [
    ['invoice', invoiceHtml()],
    ['52-page report', reportHtml()],
  ] as const) {
    await print(html); // warm
    const plain: number[] = [];
    const ua: number[] = [];
    const fix: number[] = [];
    const check: number[] = [];
    let failed = '';
    for (let run = 0; run < RUNS; run++) {
      let start = performance.now();
      await print(html);
      plain.push(performance.now() - start);
      start = performance.now();
      const bytes = await print(html);
      const fixStart = performance.now();
      const made = await makeUa(bytes, { title: name });
      const checkStart = performance.now();
      // The fixer's own report is what a UA render answers with; the separate check is measured for the inspect path.
      const report = made.report;
      await checkUa(made.bytes);
      const end = performance.now();
      failed = [...new Set(report.failed.map((finding) => finding.condition))].join(' ') || 'none';
      ua.push(checkStart - start);
      fix.push(checkStart - fixStart);
      check.push(end - checkStart);
    }
    const ratio = median(plain) / median(ua);
    console.log(
      `| ${name} | ${median(plain).toFixed(0)} | ${median(ua).toFixed(0)} | ${median(fix).toFixed(0)} | ${median(check).toFixed(0)} | ${ratio.toFixed(2)}x | ${failed} |`,
    );
  }
} finally {
  await host.close();
}
