// Experiment: a lane left on an empty document of a fresh origin, then filled with
// Page.setDocumentContent: which lifecycle events and load signals fire, and do scripts,
// timers and sub-resources behave as on a navigation?
import { randomBytes } from 'node:crypto';
import { launchBrowser } from './raw-lane.ts';
const browser = await launchBrowser('setcontent');
const context = await browser.createBrowserContext();
const bs = await browser.target().createCDPSession();
const [target] = await Promise.all([
  context.waitForTarget((t) => t.type() === 'page'),
  bs.send('Target.createTarget', { url: 'about:blank', browserContextId: context.id }),
]);
const s = await target.createCDPSession();
const log: string[] = [];
s.on('Page.lifecycleEvent', (e) => log.push(`life:${e.name}:${e.loaderId.slice(0, 6)}`));
s.on('Page.loadEventFired', () => log.push('loadEventFired'));
s.on('Page.domContentEventFired', () => log.push('dcl'));
s.on('Page.frameNavigated', (e) => log.push(`frameNavigated:${e.frame.url}`));
s.on('Fetch.requestPaused', (e) => {
  log.push(`fetch:${e.request.url}`);
  if (e.request.url.endsWith('/slow.js'))
    setTimeout(
      () =>
        s.send('Fetch.fulfillRequest', {
          requestId: e.requestId,
          responseCode: 200,
          responseHeaders: [{ name: 'Content-Type', value: 'text/javascript' }],
          body: Buffer.from("document.body.append('slow ran')").toString('base64'),
        }),
      200,
    );
  else
    s.send('Fetch.fulfillRequest', {
      requestId: e.requestId,
      responseCode: 200,
      responseHeaders: [{ name: 'Content-Type', value: 'text/html' }],
      body: Buffer.from("<!doctype html><script>window.name=''</script>").toString('base64'),
    });
});
await Promise.all([
  s.send('Page.enable'),
  s.send('Page.setLifecycleEventsEnabled', { enabled: true }),
  s.send('Fetch.enable', { patterns: [{ urlPattern: '*://*.render.invalid/*' }] }),
]);
const origin = `http://r${randomBytes(6).toString('hex')}.render.invalid`;
const loaded = new Promise((r) => s.once('Page.loadEventFired', r));
const nav = await s.send('Page.navigate', { url: `${origin}/` });
await loaded;
log.push(`--- navigated ${nav.loaderId?.slice(0, 6)}`);
const { frameTree } = await s.send('Page.getFrameTree');
const html = `<p id=t>x</p><script src="${origin}/slow.js"></script><script>document.getElementById('t').textContent = 'inline ran, compat ' + document.compatMode + ' url ' + location.href + ' name [' + window.name + ']'; setTimeout(() => document.body.append(' timer'), 50)</script>`;
const t0 = performance.now();
const loaded2 = new Promise((r) => s.once('Page.loadEventFired', r));
await s.send('Page.setDocumentContent', { frameId: frameTree.frame.id, html: `<!doctype html>${html}` });
log.push(`--- setDocumentContent returned after ${(performance.now() - t0).toFixed(0)} ms`);
await loaded2;
log.push(`--- load after ${(performance.now() - t0).toFixed(0)} ms`);
await new Promise((r) => setTimeout(r, 100));
log.push((await s.send('Runtime.evaluate', { expression: 'document.body.textContent + " history " + history.length', returnByValue: true })).result.value);
console.log(log.join('\n'));
await browser.close();
