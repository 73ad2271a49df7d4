// Experiment behind the isolation design (chromium-page-source.ts): Chromium CPU per render for
// variants of the html load path on a raw CDP target. Run: npx tsx bench/experiments/nav-variants.ts [tiny|invoice]
// Measured 2026-11-21 (tiny, ms of Chromium CPU): navigate only 7-10, + lifecycle/Network 1-2,
// + gate 5, + cookie wipe 0-3, + print 3-6; puppeteer Page wrapper instead of a raw target +8-14;
// setContent (no isolation) 1.3.
// Chromium CPU per render for variants of the html load path (experiment, not part of npm run bench).
import type { CDPSession } from 'puppeteer-core';
import { randomBytes } from 'node:crypto';
import { processTreeCpuMs } from '../proc.ts';
import { WORKLOADS } from '../workloads.ts';
import { launchBrowser } from './raw-lane.ts';

const html = WORKLOADS.find((w) => w.name === (process.argv[2] ?? 'tiny'))!.html;
const N = 150;
const browser = await launchBrowser('navvar');
const pid = browser.process()!.pid!;

interface Variant {
  name: string;
  network?: boolean;
  gate?: boolean;
  cookies?: boolean;
  sameUrl?: boolean;
  lifecycle?: boolean;
  print?: boolean;
  raw?: boolean;
  target?: 'blank' | 'data';
}
const variants: Variant[] = [
  { name: 'RAW navigate only', raw: true, print: false },
  { name: 'RAW + lifecycle', raw: true, lifecycle: true, print: false },
  { name: 'RAW + network', raw: true, lifecycle: true, network: true, print: false },
  { name: 'RAW + gate', raw: true, lifecycle: true, network: true, gate: true, print: false },
  { name: 'RAW + cookies', raw: true, lifecycle: true, network: true, gate: true, cookies: true, print: false },
  { name: 'RAW + print (full)', raw: true, lifecycle: true, network: true, gate: true, cookies: true, print: true },
  { name: 'RAW nav + print only', raw: true, print: true },
  { name: 'RAW gate+cookies+print, no network', raw: true, gate: true, cookies: true, print: true },
];

for (const variant of variants) {
  const context = await browser.createBrowserContext();
  let cdp: CDPSession;
  if (variant.raw) {
    const browserSession = await browser.target().createCDPSession();
    const [target] = await Promise.all([
      context.waitForTarget((t) => t.type() === 'page'),
      browserSession.send('Target.createTarget', { url: 'about:blank', browserContextId: context.id }),
    ]);
    cdp = await target.createCDPSession();
  } else {
    cdp = await (await context.newPage()).createCDPSession();
  }
  let pending: { url: string; gate: string; body: string } | undefined;
  cdp.on('Fetch.requestPaused', async (e) => {
    if (pending && e.request.url === pending.url) {
      await cdp.send('Fetch.fulfillRequest', {
        requestId: e.requestId,
        responseCode: 200,
        responseHeaders: [{ name: 'Content-Type', value: 'text/html' }],
        body: Buffer.from(pending.body).toString('base64'),
      });
    } else if (pending && e.request.url === pending.gate) {
      if (variant.cookies) await cdp.send('Network.clearBrowserCookies');
      await cdp.send('Fetch.fulfillRequest', {
        requestId: e.requestId,
        responseCode: 200,
        responseHeaders: [{ name: 'Content-Type', value: 'text/javascript' }],
        body: '',
      });
    } else {
      await cdp.send('Fetch.fulfillRequest', { requestId: e.requestId, responseCode: 404, responseHeaders: [], body: '' });
    }
  });
  await cdp.send('Page.enable');
  if (variant.lifecycle) await cdp.send('Page.setLifecycleEventsEnabled', { enabled: true });
  if (variant.network) {
    await cdp.send('Network.enable', { maxTotalBufferSize: 0 });
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  }
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*://*.render.invalid/*' }] });
  const once = async () => {
    const origin = variant.sameUrl ? 'http://same.render.invalid' : `http://r${randomBytes(8).toString('hex')}.render.invalid`;
    const gate = `${origin}/gate.js`;
    pending = { url: `${origin}/`, gate, body: variant.gate ? `<script src="${gate}"></script>${html}` : html };
    const loaded = new Promise((resolve) => cdp.once('Page.loadEventFired', resolve));
    const url =
      variant.target === 'blank'
        ? `about:blank#${Math.random()}`
        : variant.target === 'data'
          ? `data:text/html,${encodeURIComponent(pending.body)}`
          : pending.url;
    await cdp.send('Page.navigate', { url });
    await loaded;
    if (variant.print !== false)
      await cdp.send('Page.printToPDF', { printBackground: true, marginTop: 0.4, marginBottom: 0.4, marginLeft: 0.4, marginRight: 0.4 });
  };
  for (let i = 0; i < 10; i++) await once();
  const c0 = processTreeCpuMs(pid);
  const n0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await once();
  const n = process.cpuUsage(n0);
  console.log(
    `${variant.name.padEnd(34)} wall ${((performance.now() - t0) / N).toFixed(1)}  chromium ${((processTreeCpuMs(pid) - c0) / N).toFixed(1)}  node ${((n.user + n.system) / 1000 / N).toFixed(1)} ms`,
  );
  await context.close();
}
{
  const page = await browser.newPage();
  const once = async () => {
    await page.setContent(html, { waitUntil: 'load' });
  };
  for (let i = 0; i < 10; i++) await once();
  const c0 = processTreeCpuMs(pid);
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await once();
  console.log(`${'setContent only'.padEnd(34)} wall ${((performance.now() - t0) / N).toFixed(1)}  chromium ${((processTreeCpuMs(pid) - c0) / N).toFixed(1)}`);
}
await browser.close();
