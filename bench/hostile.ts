// The hostile neighbour (issue 11): keyed invoice throughput while anonymous playground callers
// try to hog the renderer with pages that never finish (wait_for "#never"), as a ratio to the
// same server's idle figure in the same run. The playground may hold PLAYGROUND_CONCURRENCY
// slots at most, so keyed renders keep the rest; before that cap the ratio was 0 (every keyed
// render 503). The playground rate limit is lifted here, as if the hogs came from many addresses.

import { findChromium } from '../server/src/render/chromium-path.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';
import { invoiceHtml } from './workloads.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = 2;
const HOGS = 4;
const HOG_BODY = JSON.stringify({ html: '<p>x', options: { wait_for: '#never', timeout_ms: 60_000 } });

/** Keyed invoice renders a second at CONCURRENCY clients; a refusal counts as no render. */
async function keyedPerSecond(service: ServiceProcess, body: string): Promise<{ perSecond: number; refused: number }> {
  let done = 0;
  let refused = 0;
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const response = await service.render(body);
        await response.arrayBuffer();
        if (response.status === 200) done++;
        else refused++;
      }
    }),
  );
  return { perSecond: done / ((performance.now() - started) / 1000), refused };
}

async function playgroundBusy(service: ServiceProcess): Promise<boolean> {
  const health = (await (await fetch(`${service.url}/health`)).json()) as { renderer: { busy: number; queued: number } };
  return health.renderer.busy >= 1 && health.renderer.queued >= 1;
}

export async function measureHostileNeighbour(): Promise<string> {
  const executable = await findChromium(process.env.CHROME_PATH ?? '');
  const service = await startServiceProcess({ chromePath: executable.path, env: { PLAYGROUND_RATE_LIMIT: '10000' } });
  let hogging = true;
  const hogs: Promise<void>[] = [];
  try {
    const body = JSON.stringify({ html: invoiceHtml(), options: { wait_until: 'load' } });
    await keyedPerSecond(service, body); // warm
    const idle = await keyedPerSecond(service, body);
    for (let i = 0; i < HOGS; i++) {
      hogs.push(
        (async () => {
          while (hogging) {
            const response = await fetch(`${service.url}/v1/playground/pdf`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: HOG_BODY,
            }).catch(() => undefined);
            await response?.arrayBuffer().catch(() => undefined);
          }
        })(),
      );
    }
    while (!(await playgroundBusy(service))) await new Promise((resolve) => setTimeout(resolve, 50));
    const hogged = await keyedPerSecond(service, body);
    return [
      `Hostile neighbour: keyed invoice renders (c=${CONCURRENCY}) while ${HOGS} playground callers send pages that never finish`,
      '',
      '| keyed invoice r/s idle | while hogged | hogged / idle | keyed refusals while hogged |',
      '|---|---|---|---|',
      `| ${idle.perSecond.toFixed(1)} | ${hogged.perSecond.toFixed(1)} | ${(hogged.perSecond / idle.perSecond).toFixed(2)} | ${hogged.refused} |`,
    ].join('\n');
  } finally {
    hogging = false;
    await service.stop();
    await Promise.allSettled(hogs);
  }
}
