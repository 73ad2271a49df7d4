// Bench: images of the 52-page report (rendered by the service itself) at 72 and 150 dpi through
// POST /v1/pdf/images (pdf.js on @napi-rs/canvas, on the PDF worker threads, a zip of PNGs), beside
// `pdftoppm -png` on the same file. The call's p50 includes HTTP, the upload and the zip; pdftoppm's
// time is its process's wall time (median of a few runs), writing PNG files.
// Run: npx tsx bench/pdf-images.ts   (the main bench runs it among its extras)

import { execFileSync } from 'node:child_process';
import { isMain, runBenchAlone } from './alone.ts';
import { SECONDS } from './cells.ts';
import { timedTool } from './pdf-transform.ts';
import type { ServiceProcess } from './service-process.ts';
import { measure } from './toolbox.ts';
import { reportHtml } from './workloads.ts';

const DPIS = [72, 150];
/** pdftoppm runs per resolution; the median is reported. */
const TOOL_RUNS = 3;

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);

/** The images table, measured on a running service. */
export async function measurePdfImages(service: ServiceProcess): Promise<string> {
  const rendered = await service.render(JSON.stringify({ html: reportHtml(52), options: { wait_until: 'load' } }));
  if (rendered.status !== 200) throw new Error(`the report did not render: ${rendered.status} ${await rendered.text()}`);
  const pdf = new Uint8Array(await rendered.arrayBuffer());
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', ['-'], { input: pdf, encoding: 'utf8' }))?.[1]);
  const rows = [
    `PDF to images: the ${pages}-page report (${mb(pdf.byteLength)} MB) as PNG, every page (c=1, ${SECONDS}s per call row)`,
    '',
    '| dpi | engine | ms (p50) | ms a page | output MB |',
    '|---|---|---|---|---|',
  ];
  // pdftoppm first, then the calls back to back, so no connection idles between them.
  const tool = new Map<number, { bytes: number; ms: number }>();
  for (const dpi of DPIS) {
    const runs = Array.from({ length: TOOL_RUNS }, () => timedTool(pdf, 'pdftoppm', (input, output) => ['-png', '-r', String(dpi), input, output]));
    tool.set(dpi, runs.sort((a, b) => a.ms - b.ms)[Math.floor(TOOL_RUNS / 2)]!);
  }
  // A pooled connection left idle through minutes of pdftoppm may have been closed by the server
  // under the client: a throwaway request drops it (at most a few), so the calls start on a live one.
  for (let tries = 0; tries < 3; tries++)
    if (
      await fetch(`${service.url}/health`).then(
        () => true,
        () => false,
      )
    )
      break;
  for (const dpi of DPIS) {
    const body = JSON.stringify({ pdf: Buffer.from(pdf).toString('base64'), dpi, format: 'png', output: 'zip' });
    const call = await measure(service, '/v1/pdf/images', body, SECONDS, 1);
    const zip = await fetch(`${service.url}/v1/pdf/images`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${service.key}` },
      body,
    }).then((response) => response.arrayBuffer());
    const { ms, bytes } = tool.get(dpi)!;
    rows.push(
      `| ${dpi} | POST /v1/pdf/images (pdf.js, zip) | ${call.p50.toFixed(0)} | ${(call.p50 / pages).toFixed(0)} | ${mb(zip.byteLength)} |`,
      `| ${dpi} | pdftoppm -png (median of ${TOOL_RUNS}) | ${ms.toFixed(0)} | ${(ms / pages).toFixed(0)} | ${mb(bytes)} |`,
    );
    console.error(`  images ${dpi} dpi: call p50 ${call.p50.toFixed(0)} ms, pdftoppm ${ms.toFixed(0)} ms`);
  }
  return rows.join('\n');
}

if (isMain(import.meta.url)) await runBenchAlone(measurePdfImages);
