// Experiment (issue 22): frames for a virtual clock on an engine without begin-frame control
// (Debian's full chromium --headless=new, like Electron). Does a real compositor frame come while
// the page's clock is held, and what does awaiting one cost? Then: which pages reach their final
// DOM when the clock runs in budgets with a real frame (double rAF) awaited at the window end.
// Run: CHROME_PATH=/usr/lib/chromium/chromium npx tsx bench/experiments/vt-real-frames.ts
import puppeteer from 'puppeteer-core';
import { launchFlags, needsNoSandbox } from '../../server/src/render/launch-flags.ts';

const chromePath = process.env.CHROME_PATH ?? '/usr/lib/chromium/chromium';
const isShell = chromePath.includes('headless-shell') || chromePath.includes('quire-chromium');
const browser = await puppeteer.launch({
  executablePath: chromePath,
  ignoreDefaultArgs: true,
  pipe: true,
  waitForInitialPage: false,
  headless: isShell ? 'shell' : true,
  args: [
    ...launchFlags({ isHeadlessShell: isShell, noSandbox: needsNoSandbox(), userDataDir: `/tmp/quire-vtrf-${process.pid}` }),
    ...(process.env.EXTRA_FLAGS ?? '').split(' ').filter(Boolean),
  ],
});
const page = await browser.newPage();
const s = await page.createCDPSession();
await s.send('Page.enable');
const evaluate = async (expression: string) => (await s.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true })).result.value;
const FRAME = 'new Promise((r) => requestAnimationFrame(() => r(true)))';
const DOUBLE = 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))';
const run = async (ms: number) => {
  const expired = new Promise((r) => s.once('Emulation.virtualTimeBudgetExpired', r));
  await s.send('Emulation.setVirtualTimePolicy', { policy: 'pauseIfNetworkFetchesPending', budget: ms });
  await expired;
};
const timed = async (label: string, work: () => Promise<unknown>, times = 20) => {
  const t0 = performance.now();
  for (let i = 0; i < times; i++) await Promise.race([work(), new Promise((_, no) => setTimeout(() => no(new Error('no frame in 1 s')), 1000))]);
  console.log(label, ((performance.now() - t0) / times).toFixed(1), 'ms each');
};
await page.goto('data:text/html,<p>x</p>');
await timed('real clock, one rAF', () => evaluate(FRAME));
// A frame while the clock is held never comes; run the clock in small steps until it does.
const frameInSteps = async (expression: string, step: number) => {
  let done = false;
  const frame = evaluate(expression).then(() => (done = true));
  let steps = 0;
  const v0 = await evaluate('Date.now()');
  while (!done) {
    await run(step);
    steps++;
  }
  await frame;
  return { steps, virtual: (await evaluate('Date.now()')) - v0 };
};
await s.send('Emulation.setVirtualTimePolicy', { policy: 'pause' });
for (const step of [1, 5, 16]) {
  for (const [label, expression] of [
    ['one rAF', FRAME],
    ['double rAF', DOUBLE],
  ] as const) {
    const t0 = performance.now();
    const seen = [];
    for (let i = 0; i < 10; i++) seen.push(await frameInSteps(expression, step));
    console.log(`held clock, ${label} with ${step} ms steps:`, ((performance.now() - t0) / 10).toFixed(1), 'ms wall each', JSON.stringify(seen.slice(0, 4)));
  }
}
const pages: Record<string, string> = {
  raf2: '<p id=t>no frame</p><script>requestAnimationFrame(() => requestAnimationFrame(() => { t.textContent = "second frame" }))</script>',
  io: '<p id=t>not observed</p><script>new IntersectionObserver((e) => { if (e[0].isIntersecting) t.textContent = "observed" }).observe(t)</script>',
  timers: '<p id=t>start</p><script>for (const ms of [100, 250, 400, 450, 550, 700]) setTimeout(() => { t.textContent = "after " + ms }, ms)</script>',
};
for (const mode of ['budget only', 'budget + double rAF at the end', '100 ms steps + rAF each']) {
  for (const [name, html] of Object.entries(pages)) {
    const t0 = performance.now();
    await s.send('Emulation.setVirtualTimePolicy', { policy: 'pause' });
    const loaded = new Promise((r) => s.once('Page.loadEventFired', r));
    await s.send('Page.navigate', { url: `data:text/html,${encodeURIComponent(html)}` });
    if (mode === '100 ms steps + rAF each') {
      for (let i = 0; i < 5; i++) {
        await frameInSteps(FRAME, 1);
        await run(100);
      }
      await frameInSteps(FRAME, 1);
    } else {
      await run(500);
      if (mode !== 'budget only') await frameInSteps(DOUBLE, 1);
    }
    await loaded;
    console.log(mode, name, await evaluate('t.textContent'), (performance.now() - t0).toFixed(0), 'ms');
  }
}
await browser.close();
