// How busy the desktop app's main process is during a 250-item batch, as it runs today (the server
// in the main process, rendering through the Electron page source): event-loop delay and
// utilisation of this process while the batch renders on the fake Electron (headless Chromium in
// its own process, its CDP traffic through this loop as Electron's debugger traffic goes through
// the main process). Informs the utilityProcess decision (docs/desktop.md#the-server-in-the-main-process).
//   npx tsx bench/experiments/desktop-main-loop.ts

import { mkdtemp, rm } from 'node:fs/promises';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import { configWith } from '../../server/src/config.ts';
import { createLogger } from '../../server/src/logger.ts';
import { ElectronPageSource } from '../../electron/electron-page-source.ts';
import { startServerHost } from '../../electron/server-host.ts';
import { FakeElectron } from '../../tests/helpers/fake-electron.ts';

const ITEMS = 250;
const electron = await FakeElectron.launch();
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-main-loop-'));
const log = createLogger('silent');
const server = await startServerHost(configWith({ port: 0, dataDir, logLevel: 'silent', adminToken: `adm_${'x'.repeat(32)}` }), {
  log,
  pageSource: async ({ proxyServer }) => new ElectronPageSource(electron, { proxyServer, version: electron.version, log }),
});
const admin = { authorization: `Bearer adm_${'x'.repeat(32)}`, 'content-type': 'application/json' };
const { key } = (await (
  await fetch(`${server.url}/admin/v1/keys`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'bench', plan: 'business' }) })
).json()) as { key: string };
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

async function measure(label: string, work: () => Promise<void>): Promise<void> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  const utilisation = performance.eventLoopUtilization();
  const started = performance.now();
  delay.enable();
  await work();
  delay.disable();
  const elu = performance.eventLoopUtilization(utilisation);
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  console.log(
    `${label}: ${((performance.now() - started) / 1000).toFixed(1)} s, loop busy ${(elu.utilization * 100).toFixed(0)}%, ` +
      `delay p50 ${ms(delay.percentile(50))} ms, p99 ${ms(delay.percentile(99))} ms, max ${ms(delay.max)} ms`,
  );
}

await measure('idle 3 s', () => new Promise((resolve) => setTimeout(resolve, 3000)));
await measure(`batch of ${ITEMS} invoices`, async () => {
  const rows = Array.from({ length: 30 }, (_, i) => `<tr><td>Item ${i}</td><td>${(i * 3.7).toFixed(2)}</td></tr>`).join('');
  const requests = Array.from({ length: ITEMS }, (_, i) => ({ html: `<h1>Invoice ${i}</h1><table>${rows}</table>`, options: { wait_until: 'load' } }));
  const response = await fetch(`${server.url}/v1/pdf/batch`, { method: 'POST', headers, body: JSON.stringify({ requests, async: true }) });
  if (response.status !== 202) throw new Error(`batch refused: ${response.status} ${await response.text()}`);
  const created = (await response.json()) as { batch_id: string };
  for (;;) {
    const batch = (await (await fetch(`${server.url}/v1/pdf/batch/${created.batch_id}`, { headers })).json()) as {
      status: string;
      completed?: number;
      results?: { status: string }[];
    };
    if (batch.status === 'completed') break;
    if (process.env.DEBUG_BATCH) console.log(batch.status, JSON.stringify(batch).slice(0, 300));
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});
await server.stop();
await electron.close();
await rm(dataDir, { recursive: true, force: true });
