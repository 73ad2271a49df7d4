// Experiment behind RenderClock 'virtual' (cdp-page.ts): wall time and DOM reached for pages with
// timers, in real and virtual time, on one lane each. Run: npx tsx bench/experiments/virtual-time.ts
import type { RenderClock } from '../../server/src/render/cdp-page.ts';
import { launchBrowser, openLane } from './raw-lane.ts';
import type { WaitUntil } from '../../server/src/render/render-source.ts';

const browser = await launchBrowser('vt');

const pages: Record<string, string> = {
  plain: '<p>plain</p>',
  timers:
    '<p id="t">0</p><script>for (const ms of [100, 400, 450, 700]) setTimeout(() => { document.getElementById("t").textContent = String(ms) }, ms)</script>',
  date: '<p id="t"></p><script>const t0 = Date.now(); setTimeout(() => { document.getElementById("t").textContent = "elapsed " + (Date.now() - t0) }, 300)</script>',
};
const lanes: Record<RenderClock, Awaited<ReturnType<typeof openLane>>> = { real: await openLane(browser), virtual: await openLane(browser) };
for (const [name, html] of Object.entries(pages)) {
  for (const clock of ['real', 'virtual'] as const) {
    for (const waitUntil of ['networkidle0'] as WaitUntil[]) {
      const { page, session } = lanes[clock];
      const t0 = performance.now();
      await page.load({ kind: 'html', html }, waitUntil, clock);
      const ms = performance.now() - t0;
      const text = await session.send('Runtime.evaluate', { expression: 'document.body.innerText', returnByValue: true });
      console.log(`${name.padEnd(8)} ${clock.padEnd(8)} ${waitUntil} ${ms.toFixed(0).padStart(5)} ms  ${JSON.stringify(text.result.value)}`);
      await page.clear();
    }
  }
}
await browser.close();
