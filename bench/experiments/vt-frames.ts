// Experiment: does a page draw frames (requestAnimationFrame) while its virtual clock is held, or
// only while it runs? Wall ms until a double rAF resolves.
import type { Protocol } from 'puppeteer-core';
import { launchBrowser } from './raw-lane.ts';
const browser = await launchBrowser('vt-experiment');
const page = await browser.newPage();
const s = await page.createCDPSession();
await s.send('Page.enable');
await page.goto('data:text/html,<p>x</p>');
const frame = () =>
  s.send('Runtime.evaluate', {
    expression: 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(Date.now()))))',
    awaitPromise: true,
    returnByValue: true,
  });
const timed = async (label: string, before?: () => Promise<unknown>) => {
  const w = performance.now();
  const d0 = (await s.send('Runtime.evaluate', { expression: 'Date.now()', returnByValue: true })).result.value;
  const f = frame();
  await before?.();
  const r = await Promise.race([f, new Promise((res) => setTimeout(() => res('timeout'), 1000))]);
  console.log(
    label,
    'wall',
    (performance.now() - w).toFixed(0),
    'virtual',
    typeof r === 'string' ? r : (r as Protocol.Runtime.EvaluateResponse).result.value - d0,
  );
};
await timed('real clock');
await s.send('Emulation.setVirtualTimePolicy', { policy: 'pause' });
await timed('held');
await timed('run 50', () => s.send('Emulation.setVirtualTimePolicy', { policy: 'pauseIfNetworkFetchesPending', budget: 50 }));
await timed('run 5', () => s.send('Emulation.setVirtualTimePolicy', { policy: 'pauseIfNetworkFetchesPending', budget: 5 }));
await timed('advance no budget', () => s.send('Emulation.setVirtualTimePolicy', { policy: 'advance' }));
await browser.close();
