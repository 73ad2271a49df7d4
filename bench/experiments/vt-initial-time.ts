// Experiment (issue 39 item 1): where a lane's virtual clock starts, and whether it can be set to now.
// Run: CHROME_PATH=... npx tsx bench/experiments/vt-initial-time.ts
import puppeteer from 'puppeteer-core';
import { findChromium } from '../../server/src/render/chromium-path.ts';
import { launchOptions, needsNoSandbox } from '../../server/src/render/launch-flags.ts';

const executable = await findChromium(process.env.CHROME_PATH ?? '');
const browser = await puppeteer.launch({ ...launchOptions(executable, { noSandbox: needsNoSandbox(), userDataDir: `/tmp/clk/p-${process.pid}` }) });
const beginFrames = !!process.env.BEGIN_FRAMES;
try {
  const context = await browser.createBrowserContext();
  const bs = await browser.target().createCDPSession();
  const [target] = await Promise.all([
    context.waitForTarget((t) => t.type() === 'page'),
    bs.send('Target.createTarget', { url: 'about:blank', browserContextId: context.id, enableBeginFrameControl: beginFrames }),
  ]);
  const s = await target.createCDPSession();
  await s.send('Page.enable');
  const read = async (label: string) => {
    const { result } = await s.send('Runtime.evaluate', {
      expression: '[Date.now(), performance.timeOrigin + performance.now(), performance.timeOrigin]',
      returnByValue: true,
    });
    const [d, p, o] = result.value as number[];
    console.log(
      `${label.padEnd(40)} Date.now-wall ${(d! - Date.now()).toFixed(0).padStart(8)}  perf-wall ${(p! - Date.now()).toFixed(0).padStart(8)}  origin-wall ${(o! - Date.now()).toFixed(0)}`,
    );
  };
  const budget = async (ms: number) => {
    const expired = new Promise((r) => s.once('Emulation.virtualTimeBudgetExpired', r));
    const t0 = performance.now();
    await s.send('Emulation.setVirtualTimePolicy', { policy: 'pauseIfNetworkFetchesPending', budget: ms });
    await expired;
    return performance.now() - t0;
  };
  await read('real clock');
  await s.send('Emulation.setVirtualTimePolicy', { policy: 'pause' });
  await read('after first pause');
  await new Promise((r) => setTimeout(r, 2000));
  await read('2 s later, paused');
  await s.send('Emulation.setVirtualTimePolicy', { policy: 'pause', initialVirtualTime: Date.now() / 1000 });
  await read('pause again with initialVirtualTime=now');
  const lag = -(await s.send('Runtime.evaluate', { expression: 'Date.now()', returnByValue: true }).then(({ result }) => result.value - Date.now()));
  console.log(`budget of ${lag} ms took ${(await budget(lag)).toFixed(0)} wall ms`);
  await read('after budget = lag');
  await s.send('Page.navigate', { url: 'data:text/html,<p>x</p>' });
  await budget(100);
  await read('after navigation + 100 ms');
  await new Promise((r) => setTimeout(r, 1500));
  await read('1.5 s later, paused');
  console.log(`budget of 1500 took ${(await budget(1500)).toFixed(0)} wall ms`);
  await read('after 1500 budget');
} finally {
  await browser.close();
}
