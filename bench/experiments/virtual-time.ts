// Experiment behind RenderClock 'virtual' (cdp-page.ts): wall time and DOM reached for pages with
// timers, in real and virtual time, on one lane each. Run: npx tsx bench/experiments/virtual-time.ts
import puppeteer from 'puppeteer-core';
import { CdpPage, type RenderClock } from '../../server/src/render/cdp-page.ts';
import { findChromium } from '../../server/src/render/chromium-path.ts';
import { lanePageOptions } from '../../server/src/render/lane-policy.ts';
import { launchFlags, needsNoSandbox } from '../../server/src/render/launch-flags.ts';
import type { WaitUntil } from '../../server/src/render/page-source.ts';

const executable = await findChromium('');
const browser = await puppeteer.launch({
  executablePath: executable.path, ignoreDefaultArgs: true, pipe: true, waitForInitialPage: false, headless: 'shell',
  args: launchFlags({ isHeadlessShell: true, noSandbox: needsNoSandbox(), userDataDir: `/tmp/quire-vt-${process.pid}` }),
});

async function lane() {
  const context = await browser.createBrowserContext();
  const browserSession = await browser.target().createCDPSession();
  const [target] = await Promise.all([
    context.waitForTarget((t) => t.type() === 'page'),
    browserSession.send('Target.createTarget', { url: 'about:blank', browserContextId: context.id }),
  ]);
  const session = await target.createCDPSession();
  const page = new CdpPage(session, lanePageOptions('html', session));
  await page.init();
  return { page, session };
}

const pages: Record<string, string> = {
  plain: '<p>plain</p>',
  timers: '<p id="t">0</p><script>for (const ms of [100, 400, 450, 700]) setTimeout(() => { document.getElementById("t").textContent = String(ms) }, ms)</script>',
  date: '<p id="t"></p><script>const t0 = Date.now(); setTimeout(() => { document.getElementById("t").textContent = "elapsed " + (Date.now() - t0) }, 300)</script>',
};
const lanes: Record<RenderClock, Awaited<ReturnType<typeof lane>>> = { real: await lane(), virtual: await lane() };
lanes.virtual.session.on("Network.requestWillBeSent", (e: any) => console.log("start", e.requestId, e.request.url.slice(0, 60)));
for (const ev of ["Network.loadingFinished", "Network.loadingFailed"]) lanes.virtual.session.on(ev, (e: any) => console.log(ev, e.requestId));
lanes.virtual.session.on("Emulation.virtualTimeBudgetExpired", () => console.log("expired"));
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
