// Experiment: which Network events does a page's CDP session get for a dedicated worker's fetch?
// (request-tracker.ts counts requests in flight from them.)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchBrowser } from './raw-lane.ts';
const server = http.createServer((_req, res) => res.writeHead(200, { 'access-control-allow-origin': '*' }).end('ok'));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/w`;
const browser = await launchBrowser('worker-req');
const page = await browser.newPage();
const s = await page.createCDPSession();
for (const e of ['Network.requestWillBeSent', 'Network.loadingFinished', 'Network.loadingFailed', 'Network.responseReceived'])
  s.on(e, (event) => {
    // Each of the four events carries some of these fields.
    const p = event as { requestId: string; type?: string; frameId?: string; loaderId?: string; request?: { url: string } };
    console.log(e, p.requestId, p.type ?? '', p.frameId ?? '-', p.loaderId ?? '-', p.request?.url?.slice(0, 40) ?? '');
  });
await s.send('Network.enable');
await s.send('Runtime.evaluate', {
  expression: `new Worker(URL.createObjectURL(new Blob(['fetch("${url}").catch(() => {})'], { type: 'text/javascript' }))); fetch("${url}?page")`,
});
await new Promise((r) => setTimeout(r, 1500));
await browser.close();
server.close();
