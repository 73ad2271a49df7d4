// Where a render's CPU goes: node vs Chromium, for the service's renderer (in-process, no HTTP)
// and for the warm-page engine limit. Run: npx tsx bench/experiments/cpu-split.ts [tiny|invoice]

import puppeteer from 'puppeteer-core';
import { findChromium } from '../../server/src/render/chromium-path.ts';
import { BrowserHost } from '../../server/src/render/browser-host.ts';
import { ChromiumPageSource } from '../../server/src/render/chromium-page-source.ts';
import { Renderer } from '../../server/src/render/renderer.ts';
import { DEFAULT_PDF_OPTIONS } from '../../server/src/render/pdf-options.ts';
import { toPrintOptions } from '../print-options.ts';
import { launchFlags, needsNoSandbox } from '../../server/src/render/launch-flags.ts';
import { createLogger } from '../../server/src/logger.ts';
import { processTreeCpuMs } from '../proc.ts';
import { WORKLOADS } from '../workloads.ts';

const html = WORKLOADS.find((w) => w.name === (process.argv[2] ?? 'tiny'))!.html;
const N = Number(process.argv[3] ?? 200);
const executable = await findChromium('');

async function measure(label: string, browserPid: number, once: () => Promise<void>) {
  for (let i = 0; i < 10; i++) await once();
  const node0 = process.cpuUsage();
  const chrome0 = processTreeCpuMs(browserPid);
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await once();
  const wall = (performance.now() - t0) / N;
  const node = process.cpuUsage(node0);
  const chrome = (processTreeCpuMs(browserPid) - chrome0) / N;
  console.log(`${label.padEnd(28)} wall ${wall.toFixed(1)} ms  node ${((node.user + node.system) / 1000 / N).toFixed(1)} ms  chromium ${chrome.toFixed(1)} ms`);
}

{
  const host = new BrowserHost({ executable, env: {}, recycleAfter: 0, log: createLogger('silent') });
  await host.start();
  const renderer = new Renderer(new ChromiumPageSource(host), { concurrency: 1, queueSize: 0, queueTimeoutMs: 0 });
  const options = { ...DEFAULT_PDF_OPTIONS, wait_until: 'load' as const };
  const pid = (await host.generation()).browser.process()!.pid!;
  await measure('service renderer', pid, async () => void (await renderer.render({ source: { kind: 'html', html }, options })));
  await host.close();
}
{
  const browser = await puppeteer.launch({
    executablePath: executable.path,
    ignoreDefaultArgs: true,
    pipe: true,
    waitForInitialPage: false,
    headless: 'shell',
    args: launchFlags({ isHeadlessShell: true, noSandbox: needsNoSandbox(), userDataDir: `/tmp/quire-cpu-split-${process.pid}` }),
  });
  const page = await browser.newPage();
  const print = toPrintOptions(DEFAULT_PDF_OPTIONS);
  await measure('limit (setContent+page.pdf)', browser.process()!.pid!, async () => {
    await page.setContent(html, { waitUntil: 'load' });
    await page.pdf(print);
  });
  await browser.close();
}
