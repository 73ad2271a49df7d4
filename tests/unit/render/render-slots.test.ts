import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RenderSlots } from '../../../server/src/render/render-slots.ts';
import { RendererBusyError, RendererClosedError } from '../../../server/src/render/errors.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('slots are granted up to the configured size, then callers wait', async () => {
  const slots = new RenderSlots(2, 10, 0);
  const a = await slots.acquire();
  await slots.acquire();
  let third = false;
  const waiting = slots.acquire().then((release) => {
    third = true;
    return release;
  });
  await tick();
  assert.equal(third, false);
  assert.deepEqual(slots.stats(), { size: 2, busy: 2, queued: 1, backgroundQueued: 0 });
  a();
  await waiting;
  assert.equal(third, true);
});

test('a full interactive queue refuses at once with a Retry-After estimate', async () => {
  const slots = new RenderSlots(1, 1, 0, () => 2000);
  await slots.acquire();
  void slots.acquire();
  await assert.rejects(slots.acquire(), (error: unknown) => error instanceof RendererBusyError && error.retryAfterSeconds >= 2);
});

test('an interactive waiter gets the next free slot before background waiters queued earlier', async () => {
  const slots = new RenderSlots(1, 10, 0);
  const first = await slots.acquire('background');
  const order: string[] = [];
  const background = slots.acquire('background').then((release) => {
    order.push('background');
    return release;
  });
  await tick();
  const interactive = slots.acquire('interactive').then((release) => {
    order.push('interactive');
    return release;
  });
  await tick();
  first();
  (await interactive)();
  (await background)();
  assert.deepEqual(order, ['interactive', 'background']);
});

test('background waiters are not bounded by the queue size or the queue timeout', async () => {
  const slots = new RenderSlots(1, 0, 10);
  const first = await slots.acquire();
  const waiting = Array.from({ length: 5 }, () => slots.acquire('background'));
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(slots.stats().backgroundQueued, 5);
  first();
  for (const pending of waiting) (await pending)();
  assert.equal(slots.stats().busy, 0);
});

test('an interactive wait longer than the queue timeout fails with RendererBusyError', async () => {
  const slots = new RenderSlots(1, 5, 20);
  await slots.acquire();
  await assert.rejects(slots.acquire(), RendererBusyError);
  assert.equal(slots.stats().queued, 0);
});

test('close fails every waiter and refuses new work', async () => {
  const slots = new RenderSlots(1, 5, 0);
  await slots.acquire();
  const interactive = slots.acquire();
  const background = slots.acquire('background');
  slots.close();
  await assert.rejects(interactive, RendererClosedError);
  await assert.rejects(background, RendererClosedError);
  await assert.rejects(slots.acquire(), RendererClosedError);
});

test('releasing twice gives the slot back only once', async () => {
  const slots = new RenderSlots(1, 5, 0);
  const release = await slots.acquire();
  release();
  release();
  assert.equal(slots.stats().busy, 0);
  await slots.acquire();
  assert.equal(slots.stats().busy, 1);
});

// Fairness between tenants (issue 11).

const keyA = { id: 'key_a', concurrency: 1 };
const keyB = { id: 'key_b', concurrency: 1 };

test('a tenant over its concurrency waits in its own queue while another tenant renders', async () => {
  const slots = new RenderSlots(2, 10, 0);
  const first = await slots.acquire('interactive', keyA);
  let secondOfA = false;
  const waitingA = slots.acquire('interactive', keyA).then((release) => {
    secondOfA = true;
    return release;
  });
  // A free slot is left, but key A's cap of one holds its second render back; key B gets it.
  const ofB = await slots.acquire('interactive', keyB);
  await tick();
  assert.equal(secondOfA, false);
  assert.deepEqual(slots.stats(), { size: 2, busy: 2, queued: 1, backgroundQueued: 0 });
  ofB();
  await tick();
  assert.equal(secondOfA, false, 'the freed slot is not key A’s while its first render runs');
  first();
  (await waitingA)();
  assert.equal(slots.stats().busy, 0);
});

test('waiting renders are served round-robin across tenants: one flood never starves a single request', async () => {
  const slots = new RenderSlots(1, 100, 0);
  const flood = { id: 'key_flood', concurrency: 10 };
  const held = await slots.acquire('interactive', flood);
  const order: string[] = [];
  const floodWaiters = Array.from({ length: 5 }, (_, i) =>
    slots.acquire('interactive', flood).then((release) => {
      order.push(`flood${i}`);
      return release;
    }),
  );
  await tick();
  const single = slots.acquire('interactive', keyB).then((release) => {
    order.push('single');
    return release;
  });
  await tick();
  held();
  for (const waiter of [floodWaiters[0]!, single, ...floodWaiters.slice(1)]) (await waiter)();
  assert.deepEqual(order.slice(0, 2), ['flood0', 'single'], `served in turn: ${order.join(', ')}`);
});

test('a full queue refuses a tenant that already waits, but lets in one that waits for nothing yet', async () => {
  const slots = new RenderSlots(1, 2, 0);
  const flood = { id: 'key_flood', concurrency: 10 };
  await slots.acquire('interactive', flood);
  const queued = [slots.acquire('interactive', flood), slots.acquire('interactive', flood)];
  await assert.rejects(slots.acquire('interactive', flood), RendererBusyError);
  const other = slots.acquire('interactive', keyB);
  await tick();
  assert.equal(slots.stats().queued, 3, 'the other tenant’s single request waits past the bound');
  slots.close();
  await assert.rejects(other, RendererClosedError);
  for (const waiter of queued) await assert.rejects(waiter, RendererClosedError);
});

test('background renders are not held by their tenant’s interactive cap and still yield to interactive ones', async () => {
  const slots = new RenderSlots(2, 10, 0);
  const interactive = await slots.acquire('interactive', keyA);
  const background = await slots.acquire('background', keyA);
  assert.equal(slots.stats().busy, 2);
  interactive();
  background();
});

test('the next interactive render in line is not refused while background renders hold the slots; the one behind it is', async (t) => {
  // The queue timeout's clock is mocked: it passes at once, and nothing else depends on it.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const slots = new RenderSlots(1, 5, 10_000);
  // A just-saved template's reference render (or a batch item) in the only slot.
  const background = await slots.acquire('background');
  const outcomes: string[] = [];
  const next = slots.acquire().then((release) => {
    outcomes.push('next granted');
    return release;
  });
  const behind = slots.acquire().catch((error: unknown) => void outcomes.push(`behind refused: ${(error as Error).name}`));
  t.mock.timers.tick(10_000);
  await tick();
  // Before: both were refused with renderer_busy, though nothing but background work was ahead of the first.
  assert.deepEqual(outcomes, ['behind refused: RendererBusyError']);
  assert.deepEqual(slots.stats(), { size: 1, busy: 1, queued: 1, backgroundQueued: 0 });
  background();
  (await next)();
  await behind;
  assert.deepEqual(outcomes, ['behind refused: RendererBusyError', 'next granted']);
  assert.equal(slots.stats().busy, 0);
});
