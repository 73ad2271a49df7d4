// Bench: office conversions per second through POST /v1/convert/office (the warm LibreOffice pool,
// OFFICE_CONCURRENCY as the server has it) beside the cold way many scripts use, one
// `soffice --headless --convert-to pdf` started per file (its profile made once beforehand, so only
// the process start is counted). Files: a 3-page docx and a 200-row xlsx, written here.
// Run: npx tsx bench/office.ts   (the main bench runs it among its extras)

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { docx, xlsx } from '../tests/helpers/office-fixtures.ts';
import type { ServiceProcess } from './service-process.ts';
import { measure, SECONDS } from './cells.ts';
import { isMain, runBenchAlone } from './alone.ts';

const COLD_RUNS = Number(process.env.BENCH_OFFICE_COLD_RUNS ?? 4);

interface Figures {
  perSecond: number;
  p50: number;
}

function files(): { name: string; filename: string; bytes: Uint8Array }[] {
  const lorem = 'The quick brown fox jumps over the lazy dog. '.repeat(12);
  const pages = [1, 2, 3].map((page) => [`Chapter ${page}`, ...Array.from({ length: 6 }, () => lorem)]);
  const rows: (string | number)[][] = [['Item', 'Region', 'Quantity', 'Price']];
  for (let i = 1; i <= 200; i++) rows.push([`Item ${i}`, ['North', 'South', 'East', 'West'][i % 4]!, i % 17, (i * 3.7).toFixed(2)]);
  return [
    { name: '3-page docx', filename: 'report.docx', bytes: docx(pages) },
    { name: '200-row xlsx', filename: 'figures.xlsx', bytes: xlsx(rows) },
  ];
}

function summarise(latencies: number[], seconds: number): Figures {
  latencies.sort((a, b) => a - b);
  return { perSecond: latencies.length / seconds, p50: latencies[Math.floor(latencies.length / 2)]! };
}

/** A header and footer as users write them: the file's name and section, page X of Y. */
const HEADS = {
  header: '<div style="display:flex;justify-content:space-between;border-bottom:1px solid #999"><b>{{title}}</b><span>{{section}}</span></div>',
  footer: '<div style="text-align:center">Page {{page}} of {{pages}}</div>',
};

async function measurePool(service: ServiceProcess, filename: string, bytes: Uint8Array, options?: object): Promise<Figures> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${service.key}` };
  const body = JSON.stringify({ file: Buffer.from(bytes).toString('base64'), filename, options });
  const once = async () => {
    const response = await fetch(`${service.url}/v1/convert/office`, { method: 'POST', headers, body });
    if (response.status !== 200) throw new Error(`office conversion answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  // The first call waits for LibreOffice to start; it is not counted.
  await once();
  const { perSecond, p50 } = await measure(once, 1, SECONDS, 3);
  return { perSecond, p50 };
}

function measureCold(filename: string, bytes: Uint8Array, dir: string, profile: string): Figures {
  const input = path.join(dir, filename);
  writeFileSync(input, bytes);
  const latencies: number[] = [];
  const started = performance.now();
  for (let run = 0; run < COLD_RUNS; run++) {
    const t0 = performance.now();
    const result = spawnSync('soffice', [`-env:UserInstallation=${pathToFileURL(profile).href}`, '--headless', '--convert-to', 'pdf', '--outdir', dir, input], {
      stdio: 'ignore',
    });
    if (result.status !== 0) throw new Error(`soffice --convert-to exited with ${result.status}`);
    latencies.push(performance.now() - t0);
  }
  return summarise(latencies, (performance.now() - started) / 1000);
}

/** The office table, measured on a running service (which found LibreOffice). */
export async function measureOffice(service: ServiceProcess): Promise<string> {
  const health = (await (await fetch(`${service.url}/health`)).json()) as {
    office: { available: boolean; version?: string; processes?: number; reason?: string };
  };
  if (!health.office.available) return `Office conversions: not measured (${health.office.reason}).`;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-office-'));
  const profile = path.join(dir, 'profile');
  try {
    // Every pool cell first: a client socket left idle through the cold runs would be closed by the server.
    const pool = [];
    for (const file of files()) pool.push(await measurePool(service, file.filename, file.bytes));
    const docxFile = files()[0]!;
    const withHeads = await measurePool(service, docxFile.filename, docxFile.bytes, HEADS);
    const { version } = ((await (await fetch(`${service.url}/health`)).json()) as { office: { version: string } }).office;
    // The cold runs reuse one profile, made by a first run that is not counted.
    const sample = files()[0]!;
    await writeFile(path.join(dir, 'warmup.docx'), sample.bytes);
    spawnSync(
      'soffice',
      [`-env:UserInstallation=${pathToFileURL(profile).href}`, '--headless', '--convert-to', 'pdf', '--outdir', dir, path.join(dir, 'warmup.docx')],
      {
        stdio: 'ignore',
      },
    );
    const rows = [
      `Office conversions (${version}, ${health.office.processes} warm process(es), one client, ${SECONDS} s per cell; cold: ${COLD_RUNS} runs)`,
      '',
      '| file | warm pool conv/s (p50 ms) | soffice --convert-to per file conv/s (p50 ms) | pool / cold |',
      '|---|---|---|---|',
    ];
    for (const [index, file] of files().entries()) {
      const warm = pool[index]!;
      const cold = measureCold(file.filename, file.bytes, dir, profile);
      rows.push(
        `| ${file.name} | ${warm.perSecond.toFixed(2)} (${warm.p50.toFixed(0)}) | ${cold.perSecond.toFixed(2)} (${cold.p50.toFixed(0)}) | ${(warm.perSecond / cold.perSecond).toFixed(1)}x |`,
      );
    }
    const plain = pool[0]!;
    rows.push(
      '',
      'The same docx with a header (title, section) and a footer (page X of Y), drawn on its pages (header_footer_fit: shrink):',
      '',
      '| file | plain conv/s (p50 ms) | with header and footer conv/s (p50 ms) | ratio |',
      '|---|---|---|---|',
      `| ${docxFile.name} | ${plain.perSecond.toFixed(2)} (${plain.p50.toFixed(0)}) | ${withHeads.perSecond.toFixed(2)} (${withHeads.p50.toFixed(0)}) | ${(withHeads.perSecond / plain.perSecond).toFixed(2)}x |`,
    );
    return rows.join('\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) await runBenchAlone(measureOffice);
