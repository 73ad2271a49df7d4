// Experiment (issue 22): which part of the default render path crashes Debian's
// chromium-headless-shell 156 when two renders run at once? A lane as the service runs it, in raw
// puppeteer-core: one incognito context + one target per worker, each render a navigation to a
// fresh origin answered from memory, Page.setDocumentContent with the invoice, then virtual time
// (pause, budgets with HeadlessExperimental.beginFrame between them) and Page.printToPDF.
// Knobs (env): CHROME_PATH, WORKERS (2), SECONDS (8), BEGIN_FRAME (1: target created with
// begin-frame control and frames drawn), RUN_ALL (1: --run-all-compositor-stages-before-draw),
// VT (1: virtual time; 0: wall clock, a real 500 ms quiet window is skipped), POLICY (pauseIfNetworkFetchesPending|advance),
// SERIALIZE (0: 1 sends one beginFrame at a time per browser), SHARED_CONTEXT (0: a context per worker; 1: both targets in one context), PRINT (1).
// Prints renders, crashes (browser disconnects) and renderer crashes (Inspector.targetCrashed).
// Run: CHROME_PATH=/usr/lib/chromium/chromium-headless-shell npx tsx bench/experiments/vt-crash-156.ts
import puppeteer, { type Browser, type CDPSession } from 'puppeteer-core';
import { invoiceHtml } from '../workloads.ts';
import { launchFlags, needsNoSandbox } from '../../server/src/render/launch-flags.ts';

const env = (name: string, fallback: string) => process.env[name] ?? fallback;
const chromePath = env('CHROME_PATH', '/usr/lib/chromium/chromium-headless-shell');
const workers = Number(env('WORKERS', '2'));
const seconds = Number(env('SECONDS', '8'));
const beginFrame = env('BEGIN_FRAME', '1') === '1';
const runAll = env('RUN_ALL', '1') === '1';
const virtual = env('VT', '1') === '1';
const policy = env('POLICY', 'pauseIfNetworkFetchesPending');
const sharedContext = env('SHARED_CONTEXT', '0') === '1';
const print = env('PRINT', '1') === '1';
const serialize = env('SERIALIZE', '0') === '1';
const html = invoiceHtml();

// SERIALIZE=1: one beginFrame in flight per browser, across all targets.
let frameTurn: Promise<unknown> = Promise.resolve();
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const result = frameTurn.then(work);
  frameTurn = result.catch(() => undefined);
  return result;
}

let renders = 0;
let browserCrashes = 0;
let rendererCrashes = 0;
let errors = 0;
const firstErrors: string[] = [];

function launch(): Promise<Browser> {
  const flags = launchFlags({ isHeadlessShell: true, noSandbox: needsNoSandbox(), userDataDir: `/tmp/quire-vtcrash-${process.pid}-${Date.now()}` }).filter(
    (flag) => runAll || flag !== '--run-all-compositor-stages-before-draw',
  );
  return puppeteer.launch({
    executablePath: chromePath,
    ignoreDefaultArgs: true,
    pipe: true,
    waitForInitialPage: false,
    headless: 'shell',
    args: flags,
    protocolTimeout: 15_000,
    dumpio: env('DUMPIO', '0') === '1',
  });
}

async function worker(browser: Browser, browserSession: CDPSession, deadline: number, shared?: string): Promise<void> {
  const contextId = shared ?? (await browser.createBrowserContext()).id;
  const [target] = await Promise.all([
    browser.waitForTarget(
      (t) => t.type() === 'page' && (t as unknown as { _getTargetInfo(): { browserContextId: string } })._getTargetInfo().browserContextId === contextId,
    ),
    browserSession.send('Target.createTarget', { url: 'about:blank', browserContextId: contextId, enableBeginFrameControl: beginFrame }),
  ]);
  const s = await target.createCDPSession();
  s.on('Inspector.targetCrashed', () => rendererCrashes++);
  let pendingUrl = '';
  s.on('Fetch.requestPaused', (e) => {
    const body = e.request.url === pendingUrl ? '' : 'not found';
    void s
      .send('Fetch.fulfillRequest', {
        requestId: e.requestId,
        responseCode: 200,
        responseHeaders: [{ name: 'Content-Type', value: 'text/html' }],
        body: Buffer.from(body).toString('base64'),
      })
      .catch(() => undefined);
  });
  await Promise.all([
    s.send('Page.enable'),
    s.send('Inspector.enable'),
    s.send('Page.setLifecycleEventsEnabled', { enabled: true }),
    s.send('Fetch.enable', { patterns: [{ urlPattern: '*://*.render.invalid/*', requestStage: 'Request' }] }),
    s.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 }),
  ]);
  const run = async (ms: number) => {
    const expired = new Promise((r) => s.once('Emulation.virtualTimeBudgetExpired', r));
    await s.send('Emulation.setVirtualTimePolicy', { policy: policy as 'pause', budget: ms });
    await expired;
  };
  const draw = () => s.send('HeadlessExperimental.beginFrame', { noDisplayUpdates: true });
  const frame = () => (!beginFrame ? Promise.resolve() : serialize ? inTurn(draw) : draw());
  while (Date.now() < deadline) {
    pendingUrl = `http://r${Math.random().toString(16).slice(2)}.render.invalid/`;
    const committed = new Promise((r) => s.once('Page.frameNavigated', r));
    const { frameId } = await s.send('Page.navigate', { url: pendingUrl });
    await committed;
    if (virtual) await s.send('Emulation.setVirtualTimePolicy', { policy: 'pause' });
    const loaded = new Promise((r) => s.once('Page.loadEventFired', r));
    await s.send('Page.setDocumentContent', { frameId, html });
    if (virtual) {
      for (let t = 0; t < 500; t += 100) {
        await frame();
        await run(100);
      }
      await frame();
      await loaded;
    } else {
      await loaded;
      // Frames on the wall clock: isolates beginFrame from virtual time.
      for (let i = 0; i < 6; i++) await frame();
    }
    if (print) await s.send('Page.printToPDF', { printBackground: true, preferCSSPageSize: false });
    renders++;
  }
}

const started = Date.now();
const deadline = started + seconds * 1000;
while (Date.now() < deadline) {
  const browser = await launch();
  const browserSession = await browser.target().createCDPSession();
  let crashed = false;
  let closing = false;
  browser.on('disconnected', () => {
    if (!closing && Date.now() < deadline) {
      crashed = true;
      browserCrashes++;
    }
  });
  const shared = sharedContext ? (await browser.createBrowserContext()).id : undefined;
  const results = await Promise.allSettled(Array.from({ length: workers }, () => worker(browser, browserSession, deadline, shared)));
  for (const r of results)
    if (r.status === 'rejected') {
      errors++;
      if (firstErrors.length < 3) firstErrors.push(String(r.reason?.message ?? r.reason).split('\n')[0]!);
    }
  closing = true;
  if (!crashed) await browser.close().catch(() => undefined);
  else browser.process()?.kill('SIGKILL');
}
const knobs = { workers, serialize, beginFrame, runAll, virtual, policy, sharedContext, print };
console.log(JSON.stringify({ ...knobs, renders, browserCrashes, rendererCrashes, workerErrors: errors, firstErrors, seconds: (Date.now() - started) / 1000 }));
