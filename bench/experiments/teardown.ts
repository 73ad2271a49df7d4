// Experiment behind lane-policy.ts tearDownLane: Chromium and Node CPU per html render on one
// lane (CdpPage on a raw target, as chromium-page-source.ts runs it) with and without a teardown
// after each render, variants interleaved in rounds so machine noise hits all of them alike.
// Measured 2026-11-23 with the teardown as the about:blank navigation it was then (plus a gate
// per render): +6-9 ms of Chromium CPU per render; the teardown that goes to the next render's
// empty document instead: see the commit that made it so.
// Run: npx tsx bench/experiments/teardown.ts [tiny|invoice]
import type { CdpPage } from '../../server/src/render/cdp-page.ts';
import { DEFAULT_PDF_OPTIONS } from '../../server/src/render/pdf-options.ts';
import { toPrintToPdfParams } from '../../server/src/render/print-params.ts';
import { launchBrowser, openLane } from './raw-lane.ts';
import { processTreeCpuMs } from '../proc.ts';
import { WORKLOADS } from '../workloads.ts';

const html = WORKLOADS.find((w) => w.name === (process.argv[2] ?? 'tiny'))!.html;
const ROUNDS = 6;
const PER_ROUND = 30;
const browser = await launchBrowser('teardown');
const pid = browser.process()!.pid!;
const print = toPrintToPdfParams({ ...DEFAULT_PDF_OPTIONS });

type Variant = { name: string; teardown: (page: CdpPage, session: unknown) => Promise<void> };
const variants: Variant[] = [
  // The previous document stays alive until the next load prepares its own empty document: one
  // navigation per render either way, so the difference is what the teardown costs beyond it.
  { name: 'no teardown', teardown: async () => undefined },
  // What lanes do: navigate to the next render's empty document (cdp-page.ts clear), which the
  // next load writes into.
  { name: 'next empty document', teardown: (page) => page.clear() },
];

const lanes = await Promise.all(variants.map(() => openLane(browser)));
const totals = variants.map(() => ({ chromium: 0, node: 0, wall: 0, n: 0 }));
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, variant] of variants.entries()) {
    const { page, session } = lanes[i]!;
    const once = async () => {
      await page.load({ kind: 'html', html }, 'load');
      await page.print(print);
      await variant.teardown(page, session);
    };
    if (round === 0) for (let k = 0; k < 5; k++) await once();
    const c0 = processTreeCpuMs(pid);
    const n0 = process.cpuUsage();
    const t0 = performance.now();
    for (let k = 0; k < PER_ROUND; k++) await once();
    const n = process.cpuUsage(n0);
    totals[i]!.chromium += processTreeCpuMs(pid) - c0;
    totals[i]!.node += (n.user + n.system) / 1000;
    totals[i]!.wall += performance.now() - t0;
    totals[i]!.n += PER_ROUND;
  }
}
for (const [i, variant] of variants.entries()) {
  const t = totals[i]!;
  console.log(
    `${variant.name.padEnd(20)} wall ${(t.wall / t.n).toFixed(1)}  chromium ${(t.chromium / t.n).toFixed(1)}  node ${(t.node / t.n).toFixed(1)} ms per render`,
  );
}
await browser.close();
