// Experiment: a target created with enableBeginFrameControl (Chromium launched with
// --run-all-compositor-stages-before-draw) draws a frame when asked (HeadlessExperimental.beginFrame),
// also while its virtual clock is held? Then rAF callbacks, IntersectionObserver and lazy images
// run in virtual time. Prints what each page saw, wall ms, and what a plain target does meanwhile.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchBrowser } from './raw-lane.ts';

const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4z8AARwzEcQCukw/x0F8jngAAAABJRU5ErkJggg==', 'base64');
let hits = 0;
const server = http.createServer((_req, res) => {
  hits++;
  res.writeHead(200, { 'content-type': 'image/png' }).end(png);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as AddressInfo).port;
const pages = {
  lazy: `<p id=t>start</p><div style="height:1500px"></div><img loading=lazy src="http://127.0.0.1:${port}/i.png" width=40 height=40>`,
  raf: `<p id=t>start</p><script>requestAnimationFrame(() => document.getElementById('t').textContent = 'raf ran')</script>`,
  io: `<p id=t>start</p><p id=x>x</p><script>new IntersectionObserver((e) => { if (e[0].isIntersecting) document.getElementById('t').textContent = 'io ran' }).observe(document.getElementById('x'))</script>`,
};
const browser = await launchBrowser('vtbf', ['--run-all-compositor-stages-before-draw']);
const bs = await browser.target().createCDPSession();
for (const control of [true, false]) {
  const context = await browser.createBrowserContext();
  const [target] = await Promise.all([
    context.waitForTarget((t) => t.type() === 'page'),
    bs.send('Target.createTarget', { url: 'about:blank', browserContextId: context.id, enableBeginFrameControl: control }),
  ]);
  const s = await target.createCDPSession();
  await s.send('Page.enable');
  await s.send('Network.enable');
  const frame = () => s.send('HeadlessExperimental.beginFrame', { noDisplayUpdates: true });
  const run = async (ms: number) => {
    const e = new Promise((r) => s.once('Emulation.virtualTimeBudgetExpired', r));
    await s.send('Emulation.setVirtualTimePolicy', { policy: 'pauseIfNetworkFetchesPending', budget: ms });
    await e;
  };
  for (const [name, html] of Object.entries(pages))
    for (let round = 0; round < 2; round++) {
      hits = 0;
      const t0 = performance.now();
      if (control) await s.send('Emulation.setVirtualTimePolicy', { policy: 'pause' });
      const loaded = new Promise((r) => s.once('Page.loadEventFired', r));
      await s.send('Page.navigate', { url: `data:text/html,${encodeURIComponent(html)}` });
      if (control) {
        await run(1);
        await loaded;
        let frames = 0;
        for (let i = 0; i < 5; i++) {
          const f0 = performance.now();
          await frame();
          frames += performance.now() - f0;
          await run(100);
        }
        console.log('  5 frames took', frames.toFixed(1), 'ms');
      } else {
        await loaded;
        await new Promise((r) => setTimeout(r, 300));
      }
      const text = (
        await s.send('Runtime.evaluate', {
          expression: "document.getElementById('t').textContent + (document.images[0] ? ' complete=' + document.images[0].complete : '')",
          returnByValue: true,
        })
      ).result.value;
      const pdf = await s.send('Page.printToPDF', {}).then(
        (r) => r.data.length,
        (e) => e.message,
      );
      console.log(`control=${control}`, name, text, 'hits', hits, 'wall', (performance.now() - t0).toFixed(0), 'pdf', pdf);
    }
  await context.close();
}
await browser.close();
server.close();
