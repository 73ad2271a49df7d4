// The desktop app's render path on a real engine, behind the real HTTP API: the Electron page
// source (electron/electron-page-source.ts) over a stand-in for Electron's API that forwards to
// Debian's full chromium in new headless mode, the closest build to Electron's (full Chromium, no
// HeadlessExperimental domain; tests/helpers/fake-electron.ts). Here: crash handling (a crash
// another render caused costs the client nothing; a page that crashes its renderer by itself
// gets page_crashed, as on the server) and the render path /health reports. Fidelity and
// isolation on this path: engine-parity.test.ts and the engine matrix (npm run test:engines).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineById, missingEngine } from '../helpers/engines.ts';
import { electronStandIn, type FakeElectron } from '../helpers/fake-electron.ts';
import { startFixtureServer } from '../helpers/fixture-server.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { errorOf, startTestServer, type TestServer } from '../helpers/start-app.ts';

const engine = engineById('electron-standin');
const missing = missingEngine(engine);
const skip = { skip: missing && `skipped: ${missing}` };

/** A server rendering through the Electron page source on the stand-in; one render at a time, so the live window is the render's. */
async function startDesktopServer(t: Parameters<typeof startTestServer>[0], allowHost: string): Promise<{ server: TestServer; electron: () => FakeElectron }> {
  let electron: FakeElectron | undefined;
  const server = await startTestServer(
    t,
    { renderConcurrency: 1, allowHosts: [allowHost] },
    { pageSource: electronStandIn(engine.path, (launched) => (electron = launched)) },
  );
  return { server, electron: () => electron! };
}

async function usedDocuments(server: TestServer): Promise<number> {
  const record = (await (await server.admin('GET', `/admin/v1/keys/${server.key.id}`)).json()) as { usage: { used: number } };
  return record.usage.used;
}

/** Crashes the renderer of every render window open now, for real (Page.crash: Inspector.targetCrashed, render-process-gone). */
function crashRenderWindows(electron: FakeElectron): void {
  for (const window of electron.liveWindows()) window.webContents.crash();
}

test(`${engine.name}: a renderer crash mid-render is retried once on a fresh window, answers the PDF and is charged once`, skip, async (t) => {
  let electron: () => FakeElectron = () => assert.fail('no stand-in yet');
  let requests = 0;
  // The first request for the image crashes the render window (it never answers); the retry's is answered.
  const fixture = await startFixtureServer({
    '/image.png': (_req, res) => {
      if (++requests === 1) return crashRenderWindows(electron());
      res.writeHead(404).end();
    },
  });
  t.after(() => fixture.close());
  const started = await startDesktopServer(t, `127.0.0.1:${fixture.port}`);
  electron = started.electron;
  const { server } = started;
  const response = await server.render({ html: `<p>survived the crash</p><img src="${fixture.url}/image.png">`, options: { wait_until: 'load' } });
  assert.equal(response.status, 200, await response.clone().text());
  assert.match((await inspectPdf(await response.arrayBuffer())).text, /survived the crash/);
  assert.equal(requests, 2, 'the render ran twice: crashed, then retried');
  assert.equal(await usedDocuments(server), 1, 'charged once');
  const health = (await (await server.request('GET', '/health')).json()) as { renderer: { restarts: number } };
  assert.ok(health.renderer.restarts >= 1, JSON.stringify(health.renderer));
});

test(`${engine.name}: a page that crashes its renderer on both tries answers 422 page_crashed and is not charged`, skip, async (t) => {
  let electron: () => FakeElectron = () => assert.fail('no stand-in yet');
  let requests = 0;
  const fixture = await startFixtureServer({
    '/image.png': () => {
      requests++;
      crashRenderWindows(electron());
    },
  });
  t.after(() => fixture.close());
  const started = await startDesktopServer(t, `127.0.0.1:${fixture.port}`);
  electron = started.electron;
  const { server } = started;
  const error = await errorOf(await server.render({ html: `<p>crashes</p><img src="${fixture.url}/image.png">`, options: { wait_until: 'load' } }));
  assert.deepEqual([error.status, error.code], [422, 'page_crashed'], error.detail);
  assert.equal(requests, 2, 'tried twice, on two fresh windows');
  assert.equal(await usedDocuments(server), 0, 'a failed render is never charged');
  const next = await server.render({ html: '<p>the next render prints</p>', options: { wait_until: 'load' } });
  assert.match((await inspectPdf(await next.arrayBuffer())).text, /the next render prints/);
});

test(`${engine.name}: /health names the desktop render path and why`, skip, async (t) => {
  const { server } = await startDesktopServer(t, '127.0.0.1:9');
  const health = (await (await server.request('GET', '/health')).json()) as { renderer: { browser: string; render_path: { mode: string; reason: string } } };
  assert.match(health.renderer.browser, /FakeElectron\/0 Chrome\//);
  assert.ok(['virtual-real-frames', 'real'].includes(health.renderer.render_path.mode), JSON.stringify(health.renderer.render_path));
  assert.ok(health.renderer.render_path.reason.length > 0);
});
