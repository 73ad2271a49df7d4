// What the network guard costs: the same renders against two servers started side by side in
// one run, one with NETWORK_GUARD on (every browser connection through the egress proxy) and one
// with it off. The invoice fetches nothing, so it shows the fixed cost; the page with five
// sub-resources from a loopback fixture (opened by ALLOW_HOSTS) shows the per-request cost.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { findChromium } from '../server/src/render/chromium-path.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';
import { invoiceHtml } from './workloads.ts';
import { measure as measureRenders, SECONDS } from './cells.ts';
import { isMain, printAlone } from './alone.ts';

const CONCURRENCY = 2;

interface Figures {
  perSecond: number;
  p50: number;
  p95: number;
}

async function measure(service: ServiceProcess, body: string): Promise<Figures> {
  const once = async () => {
    const response = await service.render(body);
    if (response.status !== 200) throw new Error(`service answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  await once();
  const { perSecond, p50, p95 } = await measureRenders(once, CONCURRENCY, SECONDS, 0);
  return { perSecond, p50, p95 };
}

/** A loopback fixture serving a stylesheet, a script and three images. */
async function startAssets(): Promise<{ base: string; port: number; close(): Promise<void> }> {
  const svg = (colour: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="${colour}"/></svg>`;
  const assets: Record<string, [string, string]> = {
    '/style.css': ['text/css', 'body { font-family: Arial; } .box { border: 1px solid #ccd; padding: 8px; }'],
    '/script.js': ['text/javascript', 'document.documentElement.dataset.ready = "1";'],
    '/a.svg': ['image/svg+xml', svg('#2f6fed')],
    '/b.svg': ['image/svg+xml', svg('#1d2433')],
    '/c.svg': ['image/svg+xml', svg('#f3f6fc')],
  };
  const server = http.createServer((req, res) => {
    const asset = assets[req.url ?? ''];
    if (!asset) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': asset[0], 'cache-control': 'no-store' }).end(asset[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs both servers and returns the markdown section. */
export async function measureGuard(): Promise<string> {
  const executable = await findChromium(process.env.CHROME_PATH ?? '');
  const assets = await startAssets();
  const subresources = `<!doctype html><link rel="stylesheet" href="${assets.base}/style.css"><script src="${assets.base}/script.js"></script>
    <div class="box"><h1>Five sub-resources</h1><img src="${assets.base}/a.svg"><img src="${assets.base}/b.svg"><img src="${assets.base}/c.svg"></div>`;
  const workloads: [string, string][] = [
    ['invoice (no sub-resources)', JSON.stringify({ html: invoiceHtml(), options: { wait_until: 'load' } })],
    ['page with 5 loopback sub-resources', JSON.stringify({ html: subresources, options: { wait_until: 'load' } })],
  ];
  const env = { ALLOW_HOSTS: `127.0.0.1:${assets.port}` };
  const guarded = await startServiceProcess({ chromePath: executable.path, env: { ...env, NETWORK_GUARD: 'on' } });
  const unguarded = await startServiceProcess({ chromePath: executable.path, env: { ...env, NETWORK_GUARD: 'off' } });
  const rows = ['| workload | c | guard on r/s | guard off r/s | on / off | p50 / p95 ms on | p50 / p95 ms off |', '|---|---|---|---|---|---|---|'];
  try {
    for (const [index, [name, body]] of workloads.entries()) {
      // Alternate which server goes first so neither always meets the machine in the same state.
      const first = await measure(index % 2 === 0 ? guarded : unguarded, body);
      const second = await measure(index % 2 === 0 ? unguarded : guarded, body);
      const [on, off] = index % 2 === 0 ? [first, second] : [second, first];
      rows.push(
        `| ${name} | ${CONCURRENCY} | ${on.perSecond.toFixed(1)} | ${off.perSecond.toFixed(1)} | ${(on.perSecond / off.perSecond).toFixed(2)} | ${on.p50.toFixed(0)} / ${on.p95.toFixed(0)} | ${off.p50.toFixed(0)} / ${off.p95.toFixed(0)} |`,
      );
      console.error(`  guard ${name}: on ${on.perSecond.toFixed(1)}/s, off ${off.perSecond.toFixed(1)}/s`);
    }
  } finally {
    await Promise.all([guarded.stop(), unguarded.stop()]);
    await assets.close();
  }
  return `Network guard cost (NETWORK_GUARD on vs off, same run, ${SECONDS} s per cell)\n\n${rows.join('\n')}`;
}

// `npx tsx bench/guard.ts` runs this section alone.
if (isMain(import.meta.url)) await printAlone(measureGuard);
