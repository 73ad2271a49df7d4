// Experiment: wall ms of each CDP call of a default (virtual-clock networkidle0) html render on a lane.
// Run: npx tsx bench/experiments/vt-phases.ts [tiny|invoice]
import { DEFAULT_PDF_OPTIONS } from '../../server/src/render/pdf-options.ts';
import { toPrintToPdfParams } from '../../server/src/render/print-params.ts';
import { WORKLOADS } from '../workloads.ts';
import { launchBrowser, openLane } from './raw-lane.ts';
const html = WORKLOADS.find((w) => w.name === (process.argv[2] ?? 'tiny'))!.html;
const browser = await launchBrowser('vt-phases');
const { page, session } = await openLane(browser, 'virtual');
// The send the lane's page calls, untyped: every command goes through this timing wrapper.
type UntypedSend = (method: string, params?: object) => Promise<unknown>;
const send = session.send.bind(session) as UntypedSend;
const calls: string[] = [];
(session as { send: UntypedSend }).send = async (method, params) => {
  const t0 = performance.now();
  try {
    return await send(method, params);
  } finally {
    calls.push(`${method} ${(performance.now() - t0).toFixed(1)}`);
    if (process.env.TRACE) console.log(calls.at(-1));
  }
};
for (let i = 0; i < 4; i++) {
  calls.length = 0;
  const t0 = performance.now();
  await page.load({ kind: 'html', html }, 'networkidle0', 'virtual');
  const t1 = performance.now();
  await page.print(toPrintToPdfParams({ ...DEFAULT_PDF_OPTIONS }));
  const t2 = performance.now();
  await page.clear();
  console.log(`load ${(t1 - t0).toFixed(0)} print ${(t2 - t1).toFixed(0)} clear ${(performance.now() - t2).toFixed(0)}`);
  if (i === 3) console.log(calls.join('\n'));
}
await browser.close();
