// The render path on the Chromium this lane runs (CHROME_PATH, else the npm headless shell):
// default-option renders side by side must not crash the browser (Chromium 156 did, on
// overlapping begin frames), /health says which path is in force and why, a render whose browser
// crashed under it is retried once and charged once, and a page that crashes its own renderer
// twice answers 422 page_crashed, uncharged (docs/decisions.md#render-paths-probed-at-launch-and-a-crash-breaker).
// test-lane: own-server (reads server-wide restarts and metrics).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, errorOf, type TestServer, usageOf } from '../helpers/start-app.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { CRASH_BROWSER, CRASH_BROWSER_ALWAYS, CRASH_PAGE, crashingPageSource, type CrashingPageSource } from '../helpers/crashing-page-source.ts';
import { invoiceHtml } from '../../bench/workloads.ts';
import { waitFor } from '../helpers/wait-for.ts';

interface RenderPathReport {
  mode: string;
  reason: string;
  disabled: { mode: string; by: string; reason: string }[];
  probe_ms: number;
}

interface RendererReport {
  restarts: number;
  render_path: RenderPathReport;
}

/**
 * /health's renderer once it answers 200 and `holds` is true of it, read again until then (60 s
 * deadline): a 503 while the browser is relaunched, or slow to answer the probe on a loaded
 * machine, is "not yet", not a failure.
 */
async function healthWhen(server: TestServer, what: string, holds: (renderer: RendererReport) => boolean = () => true): Promise<RendererReport> {
  let seen: { http: number; renderer: RendererReport } | undefined;
  const check = async () => {
    const response = await server.request('GET', '/health');
    seen = { http: response.status, renderer: ((await response.json()) as { renderer: RendererReport }).renderer };
    return seen.http === 200 && holds(seen.renderer);
  };
  await waitFor(check, `/health to answer 200 with ${what}`, 60_000).catch((error: Error) => {
    throw new Error(`${error.message}; last seen: ${JSON.stringify(seen)}`);
  });
  return seen!.renderer;
}

const rendererHealth = (server: TestServer) => healthWhen(server, 'a live browser');

test('default-option renders side by side keep the browser up, on the virtual clock', async (t) => {
  const server = await startTestServer(t);
  const before = await rendererHealth(server);
  assert.notEqual(
    before.render_path.mode,
    'real',
    `a virtual-clock path is expected on ${process.env.CHROME_PATH ?? 'the npm headless shell'}: ${before.render_path.reason}`,
  );
  const html = invoiceHtml();
  // Two clients, as the slots allow: on Chromium 156 before the fix the browser crashed about once a second here.
  const statuses = await Promise.all(
    [0, 1].map(async () => {
      const seen: number[] = [];
      for (let i = 0; i < 12; i++) {
        const response = await server.render({ html });
        seen.push(response.status);
        const bytes = await response.arrayBuffer();
        if (i === 0 && response.status === 200) assert.match((await inspectPdf(bytes)).text, /INVOICE|Invoice/);
      }
      return seen;
    }),
  );
  assert.deepEqual(statuses.flat(), Array(24).fill(200));
  const after = await rendererHealth(server);
  assert.equal(after.restarts, before.restarts, 'no browser crash or relaunch');
  assert.equal(after.render_path.mode, before.render_path.mode);
});

test('/health names the render path in force and why', async (t) => {
  const server = await startTestServer(t);
  const { render_path: path } = await rendererHealth(server);
  assert.ok(['virtual-begin-frame', 'virtual-real-frames', 'real'].includes(path.mode), path.mode);
  assert.ok(path.reason.length > 10, path.reason);
  assert.ok(path.probe_ms > 0, 'a probe ran at launch');
  for (const entry of path.disabled) assert.ok(['probe', 'breaker'].includes(entry.by) && entry.reason.length > 0);
  const metrics = await (await server.requestWithoutKey('GET', '/metrics')).text();
  assert.match(metrics, new RegExp(`quire_render_path\\{mode="${path.mode}"\\} 1`));
});

test('a crash under a render: one retry on the fresh browser, charged once; a page that crashes its renderer twice is 422 page_crashed', async (t) => {
  let source: CrashingPageSource | undefined;
  const server = await startTestServer(t, { metricsEnabled: true }, { pageSource: crashingPageSource((made) => (source = made)) });

  await t.test('the browser crashes under a render: the client gets its PDF, one document is counted', async () => {
    const used = await usageOf(server);
    const response = await server.render({ html: `<p>survived ${CRASH_BROWSER}</p>` });
    assert.equal(response.status, 200, await response.clone().text());
    assert.match((await inspectPdf(await response.arrayBuffer())).text, /survived/);
    assert.equal(source!.browserCrashes, 2, 'crashed once, rendered on the relaunched browser');
    assert.equal(await usageOf(server), used + 1);
    assert.equal(response.headers.get('x-service-usage'), String(used + 1));
  });

  await t.test('a page that crashes its renderer on both tries: 422 page_crashed, not charged', async () => {
    const used = await usageOf(server);
    const error = await errorOf(await server.render({ html: `<p>${CRASH_PAGE}</p>` }));
    assert.equal(error.status, 422);
    assert.equal(error.code, 'page_crashed');
    assert.equal(await usageOf(server), used);
    // The next render is unaffected.
    const response = await server.render({ html: '<p>next</p>' });
    assert.equal(response.status, 200);
    assert.equal(await usageOf(server), used + 1);
  });

  await t.test('the retries are counted', async () => {
    const metrics = await (await server.requestWithoutKey('GET', '/metrics')).text();
    assert.match(metrics, /quire_render_retries_total\{scope="browser"\} 1/);
    assert.match(metrics, /quire_render_retries_total\{scope="page"\} 1/);
  });
});

test('a browser that keeps crashing under one render path gets that path switched off for its build, and rendering carries on', async (t) => {
  const server = await startTestServer(t, { metricsEnabled: true }, { pageSource: crashingPageSource(() => undefined) });
  const before = (await rendererHealth(server)).render_path;
  assert.notEqual(before.mode, 'real', before.reason);
  // Each render crashes the browser on both tries: two renders are four crashes with this path in use.
  for (let i = 0; i < 2; i++) {
    const error = await errorOf(await server.render({ html: `<p>${CRASH_BROWSER_ALWAYS}</p>` }));
    assert.equal(error.code, 'renderer_busy');
  }
  // The last crash's relaunch probes without the switched-off mode.
  const after = (await healthWhen(server, `a path other than ${before.mode}`, (renderer) => renderer.render_path.mode !== before.mode)).render_path;
  const switchedOff = after.disabled.find((entry) => entry.mode === before.mode);
  assert.equal(switchedOff?.by, 'breaker');
  assert.match(switchedOff!.reason, /browser crashes/);
  // /health answered with a live browser: the relaunch is over and the next render prints.
  const response = await server.render({ html: '<p>still rendering</p>' });
  assert.equal(response.status, 200, await response.clone().text());
  assert.match((await inspectPdf(await response.arrayBuffer())).text, /still rendering/);
  const metrics = await (await server.requestWithoutKey('GET', '/metrics')).text();
  assert.match(metrics, /quire_render_path_fallbacks_total\{mode="[a-z-]+",by="breaker"\} [1-9]/);
});
