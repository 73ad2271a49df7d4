// The background worker's schedule (queue/batch-worker.ts): turns across keys, then across one
// key's batches; a fixed number in flight; retries go to the back; stop waits for what runs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BatchWorker, type BatchWorkerOptions, type ItemRunner } from '../../../server/src/queue/batch-worker.ts';
import { createLogger } from '../../../server/src/logger.ts';

/** A worker already serving the runner, as the batches service makes it. */
function servingWorker(options: BatchWorkerOptions, runner: ItemRunner): BatchWorker {
  const worker = new BatchWorker(options);
  worker.serve(runner);
  return worker;
}

/** A runItem whose items end when told to, recording the order they started in. */
function controlledRuns() {
  const started: string[] = [];
  const pending = new Map<string, (outcome: 'ended' | 'retry') => void>();
  let peak = 0;
  const runItem = (batchId: string, index: number) =>
    new Promise<'ended' | 'retry'>((resolve) => {
      const name = `${batchId}:${index}`;
      started.push(name);
      pending.set(name, resolve);
      peak = Math.max(peak, pending.size);
    });
  const finish = async (name: string, outcome: 'ended' | 'retry' = 'ended') => {
    pending.get(name)!(outcome);
    pending.delete(name);
    await new Promise((resolve) => setImmediate(resolve));
  };
  const finishAll = async () => {
    while (pending.size > 0) await finish([...pending.keys()][0]!);
  };
  return { started, runItem, finish, finishAll, peak: () => peak };
}

test('keys take turns: a key that queues later is not stuck behind a large batch', async () => {
  const runs = controlledRuns();
  const worker = servingWorker({ inFlight: 1, log: createLogger('silent') }, { runItem: runs.runItem, onGiveUp: async () => undefined });
  worker.enqueue('key_a', 'A', [0, 1, 2, 3, 4]);
  worker.enqueue('key_b', 'B', [0, 1]);
  worker.enqueue('key_c', 'C', [0]);
  await runs.finishAll();
  assert.deepEqual(runs.started, ['A:0', 'A:1', 'B:0', 'C:0', 'A:2', 'B:1', 'A:3', 'A:4']);
});

test('one key’s batches take turns too', async () => {
  const runs = controlledRuns();
  const worker = servingWorker({ inFlight: 1, log: createLogger('silent') }, { runItem: runs.runItem, onGiveUp: async () => undefined });
  worker.enqueue('key_a', 'A', [0, 1, 2]);
  worker.enqueue('key_a', 'A2', [0, 1]);
  await runs.finishAll();
  assert.deepEqual(runs.started, ['A:0', 'A:1', 'A2:0', 'A:2', 'A2:1']);
});

test('no more than inFlight items run at once; a retried item goes to the back of its batch', async () => {
  const runs = controlledRuns();
  const worker = servingWorker({ inFlight: 2, log: createLogger('silent') }, { runItem: runs.runItem, onGiveUp: async () => undefined });
  worker.enqueue('key_a', 'A', [0, 1, 2, 3]);
  assert.deepEqual(runs.started, ['A:0', 'A:1']);
  await runs.finish('A:0', 'retry');
  await runs.finishAll();
  assert.equal(runs.peak(), 2);
  assert.deepEqual(runs.started, ['A:0', 'A:1', 'A:2', 'A:3', 'A:0']);
  assert.equal(worker.queuedCount(), 0);
});

test('stop hands out nothing more and waits for the items in flight', async () => {
  const runs = controlledRuns();
  const worker = servingWorker({ inFlight: 1, log: createLogger('silent') }, { runItem: runs.runItem, onGiveUp: async () => undefined });
  worker.enqueue('key_a', 'A', [0, 1]);
  let stopped = false;
  const stopping = worker.stop().then(() => {
    stopped = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(stopped, false, 'waits for A:0');
  await runs.finish('A:0');
  await stopping;
  assert.deepEqual(runs.started, ['A:0']);
});

test('an item whose run keeps throwing is retried with growing waits, then given up once', async () => {
  const tried: number[] = [];
  const givenUp: string[] = [];
  const { promise: done, resolve: settle } = Promise.withResolvers<void>();
  const worker = servingWorker(
    { inFlight: 1, retryDelayMs: 1, maxTries: 4, log: createLogger('silent') },
    {
      runItem: async () => {
        tried.push(performance.now());
        throw new Error('state write failed');
      },
      onGiveUp: async (batchId, index, error) => {
        givenUp.push(`${batchId}:${index}:${(error as Error).message}`);
        settle();
      },
    },
  );
  worker.enqueue('key_a', 'A', [0]);
  await done;
  await worker.stop();
  assert.equal(tried.length, 4, 'tried maxTries times, no more');
  assert.deepEqual(givenUp, ['A:0:state write failed']);
});
