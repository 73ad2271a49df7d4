// BrowserHost's liveness probe (what GET /health asks) while its browser is being replaced, on a
// real Chromium: after a crash the probe waits for the relaunch already under way, and a browser
// recycled while the service is idle has its successor launched at once. Before, both answered
// "dead" though the next render would have worked (issue 40: /health 503 on a loaded machine). And a
// wait for a page target ends when its browser dies.

import { getEventListeners } from 'node:events';
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { BrowserHost } from '../../server/src/render/browser-host.ts';
import { findChromium } from '../../server/src/render/chromium-path.ts';
import { engineUnderTest } from '../helpers/engines.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** Generous: the probe's bound is what /health uses in production; here only the answer is asserted. */
const PROBE_BOUND_MS = 60_000;

async function startedHost(t: TestContext, recycleAfter = 0): Promise<BrowserHost> {
  const host = new BrowserHost({ executable: await findChromium(engineUnderTest.path), env: {}, recycleAfter, log: pino({ level: 'silent' }) });
  t.after(() => host.close());
  await host.start();
  return host;
}

test('after a crash, the probe answers for the browser being relaunched', async (t) => {
  const host = await startedHost(t);
  const crashed = host.currentGeneration!;
  process.kill(crashed.browser.process()!.pid!, 'SIGKILL');
  // The crash is noticed (retired, relaunch started) before the relaunch can be done.
  await waitFor(() => host.restarts === 1, 'the crash to be noticed');
  assert.equal(await host.probe(PROBE_BOUND_MS), true);
  assert.notEqual(host.currentGeneration, crashed);
  assert.equal(host.currentGeneration!.isAlive, true);
});

test('a browser recycled with nothing in flight is replaced at once, and the probe answers for the new one', async (t) => {
  const host = await startedHost(t, 1);
  const first = await host.generation();
  // What a render does with its browser: holds it, is counted, lets go (the last render closes it).
  first.inFlight++;
  host.countRender(first);
  host.leave(first);
  assert.equal(first.isAlive, false, 'the recycled browser is closed');
  assert.equal(await host.probe(PROBE_BOUND_MS), true);
  assert.notEqual(host.currentGeneration, first);
});

test("a wait for a page target ends when its browser dies, not at puppeteer's own 30 s timeout; a settled wait leaves no listener", async (t) => {
  const host = await startedHost(t);
  const generation = host.currentGeneration!;
  // Work that settles while the browser lives leaves no listener behind (a browser serves thousands of pages).
  const ended = (generation as unknown as { ended: AbortController }).ended.signal;
  assert.equal(await generation.whileAlive(Promise.resolve('opened')), 'opened');
  assert.equal(getEventListeners(ended, 'abort').length, 0);
  const context = await generation.browser.createBrowserContext();
  // No page is ever opened in this context: only the browser's death can end the wait (what
  // openLane waits on while its page opens; a killed browser never sends the target's event).
  const waiting = generation.whileAlive(context.waitForTarget(() => false, { timeout: 0 }));
  process.kill(generation.browser.process()!.pid!, 'SIGKILL');
  await assert.rejects(waiting, /the browser died while a page opened/);
});
