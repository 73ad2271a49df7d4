// The admin window's live screens refresh what an event names through oneFetchAtATime (issue 40): a
// call that comes while a fetch runs is never dropped, but folds into exactly one more fetch after it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { oneFetchAtATime } from '../../../ui/src/lib/one-fetch-at-a-time.ts';

/** A fetch the test ends by hand, recording each start. */
function heldFetches() {
  const started: { key: string; end: () => void; fail: () => void }[] = [];
  const fetch = (key: string) => new Promise<void>((resolve, reject) => started.push({ key, end: resolve, fail: () => reject(new Error('offline')) }));
  return { started, fetch };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('calls during a fetch fold into exactly one more, started only after it ends', async () => {
  const { started, fetch } = heldFetches();
  const refresh = oneFetchAtATime(fetch);
  refresh('bat_a');
  refresh('bat_a');
  refresh('bat_a');
  assert.equal(started.length, 1, 'one fetch at a time');
  started[0]!.end();
  await settle();
  assert.deepEqual(
    started.map((run) => run.key),
    ['bat_a', 'bat_a'],
    'the calls made during the first fetch asked for one more',
  );
  started[1]!.end();
  await settle();
  assert.equal(started.length, 2, 'nothing more was asked for');
});

test('keys do not wait for each other, and a failed fetch still lets the next one run', async () => {
  const { started, fetch } = heldFetches();
  const refresh = oneFetchAtATime(fetch);
  refresh('bat_a');
  refresh('bat_b');
  assert.deepEqual(
    started.map((run) => run.key),
    ['bat_a', 'bat_b'],
  );
  refresh('bat_a');
  started[0]!.fail();
  await settle();
  assert.deepEqual(
    started.map((run) => run.key),
    ['bat_a', 'bat_b', 'bat_a'],
  );
});
