// Experiment (not part of npm run bench): where a batch item's time goes, in one run: interactive
// renders with and without store at c=2, and a background batch, with the CPU of the server's
// node process and of its browser tree per document.

import { readFileSync } from 'node:fs';
import { findChromium } from '../../server/src/render/chromium-path.ts';
import { startServiceProcess, type ServiceProcess } from '../service-process.ts';
import { processTreeCpuMs } from '../proc.ts';
import { invoiceHtml } from '../workloads.ts';

const INVOICE = invoiceHtml();

function ownCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function cpuOf<T>(service: ServiceProcess, docs: number, work: () => Promise<T>): Promise<string> {
  const node0 = ownCpuMs(service.pid);
  const all0 = processTreeCpuMs(service.pid);
  const t0 = performance.now();
  await work();
  const seconds = (performance.now() - t0) / 1000;
  const node = (ownCpuMs(service.pid) - node0) / docs;
  const all = (processTreeCpuMs(service.pid) - all0) / docs;
  return `${(docs / seconds).toFixed(1)} docs/s; CPU ms/doc node ${node.toFixed(1)}, browser ${(all - node).toFixed(1)}`;
}

async function interactive(service: ServiceProcess, n: number, store: boolean): Promise<void> {
  const body = JSON.stringify({ html: INVOICE, options: { wait_until: 'load' }, store });
  let left = n;
  await Promise.all(
    [0, 1].map(async () => {
      while (left-- > 0) await (await service.render(body)).arrayBuffer();
    }),
  );
}

async function batch(service: ServiceProcess, n: number): Promise<void> {
  const requests = Array.from({ length: n }, () => ({ html: INVOICE }));
  const accepted = await fetch(`${service.url}/v1/pdf/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ requests, options: { wait_until: 'load' }, async: true }),
  });
  const { batch_id: id } = (await accepted.json()) as { batch_id: string };
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const state = (await (await fetch(`${service.url}/v1/pdf/batch/${id}`, { headers: { authorization: `Bearer ${service.key}` } })).json()) as {
      status: string;
    };
    if (state.status === 'completed') return;
  }
}

const executable = await findChromium(process.env.CHROME_PATH ?? '');
const service = await startServiceProcess({ chromePath: executable.path });
try {
  await interactive(service, 20, false);
  console.log('interactive       ', await cpuOf(service, 200, () => interactive(service, 200, false)));
  console.log('interactive store ', await cpuOf(service, 200, () => interactive(service, 200, true)));
  console.log('batch             ', await cpuOf(service, 200, () => batch(service, 200)));
  console.log('interactive       ', await cpuOf(service, 200, () => interactive(service, 200, false)));
} finally {
  await service.stop();
}
