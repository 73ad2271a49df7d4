// The liveness answer of GET /health (services/render/health.ts) on a stand-in renderer: a live answer is
// kept a few seconds, but not past a browser restart, and a dead one is not kept at all, so the
// relaunch that follows a crash shows at the next call.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HealthService } from '../../../../server/src/services/render/health.ts';
import type { RendererStats } from '../../../../server/src/render/render-job.ts';
import { UNPROBED_PATH } from '../../../../server/src/render/render-path.ts';

/** A renderer whose probe answers from `answers` in turn, counting the probes. */
function standIn(answers: boolean[]) {
  const renderer = {
    restarts: 0,
    probes: 0,
    stats: (): RendererStats => ({
      size: 2,
      busy: 0,
      queued: 0,
      backgroundQueued: 0,
      version: 'HeadlessChrome/0',
      renderPath: UNPROBED_PATH,
      restarts: renderer.restarts,
      rendersTotal: 0,
    }),
    probe: async () => answers[renderer.probes++] ?? true,
  };
  return renderer;
}

test('a live answer is kept for the cache time, then probed again', async () => {
  let now = 0;
  const renderer = standIn([true, true]);
  const health = new HealthService(renderer, undefined, 3000, () => now);
  assert.equal((await health.report()).ok, true);
  now = 2999;
  assert.equal((await health.report()).ok, true);
  assert.equal(renderer.probes, 1, 'answered from the cache');
  now = 3000;
  await health.report();
  assert.equal(renderer.probes, 2);
});

test('a dead answer is not kept: the next call sees the relaunched browser', async () => {
  const renderer = standIn([false, true]);
  const health = new HealthService(renderer, undefined, 3000, () => 0);
  assert.equal((await health.report()).ok, false);
  assert.equal((await health.report()).ok, true);
});

test('a live answer does not outlive a browser restart', async () => {
  const renderer = standIn([true, false]);
  const health = new HealthService(renderer, undefined, 3000, () => 0);
  assert.equal((await health.report()).ok, true);
  renderer.restarts++;
  assert.equal((await health.report()).ok, false, 'probed again after the crash, within the cache time');
});
