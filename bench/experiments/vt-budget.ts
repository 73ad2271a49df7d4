// Experiment: does a second setVirtualTimePolicy budget replace the first? Virtual ms elapsed at each expiry.
import { launchBrowser } from './raw-lane.ts';
const browser = await launchBrowser('vt-experiment');
const page = await browser.newPage();
const s = await page.createCDPSession();
await s.send('Page.enable');
const now = async () => (await s.send('Runtime.evaluate', { expression: 'performance.now()', returnByValue: true })).result.value as number;
const expired = () => new Promise<void>((r) => s.once('Emulation.virtualTimeBudgetExpired', () => r()));
await s.send('Emulation.setVirtualTimePolicy', { policy: 'pause' });
await s.send('Page.navigate', { url: 'data:text/html,<p>x</p><script>setInterval(()=>{}, 100)</script>' });
await new Promise((r) => setTimeout(r, 300));
const t0 = await now();
for (const [label, budget] of [
  ['first 500', 500],
  ['second 500', 500],
  ['then 2500', 2500],
] as const) {
  const e = expired();
  const w = performance.now();
  await s.send('Emulation.setVirtualTimePolicy', { policy: 'pauseIfNetworkFetchesPending', budget });
  await e;
  console.log(label, 'virtual elapsed', ((await now()) - t0).toFixed(0), 'wall', (performance.now() - w).toFixed(0));
}
// Big budget, then pause, then a small one
const big = await now();
await s.send('Emulation.setVirtualTimePolicy', { policy: 'pauseIfNetworkFetchesPending', budget: 600000 });
await new Promise((r) => setTimeout(r, 20));
await s.send('Emulation.setVirtualTimePolicy', { policy: 'pause' });
const mid = await now();
const e = expired();
await s.send('Emulation.setVirtualTimePolicy', { policy: 'pauseIfNetworkFetchesPending', budget: 2500 });
await e;
console.log('after big budget + pause: ran', (mid - big).toFixed(0), 'then 2500 budget gave', ((await now()) - mid).toFixed(0));
await browser.close();
