// Items of an in-call batch take the month's allowance in their order (services/render/render.ts
// reserveTurns), so a batch past its allowance keeps its first items whatever renders first.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reserveTurns } from '../../../../server/src/services/render/reserve-turns.ts';

/** Which turns are open after the microtasks settle. */
async function openTurns(turns: { ready: Promise<void> }[]): Promise<number[]> {
  const open: number[] = [];
  turns.forEach((turn, index) => void turn.ready.then(() => open.push(index)));
  await new Promise((resolve) => setImmediate(resolve));
  return open.sort();
}

test('turns open one after another, each once every earlier one is done', async () => {
  const turns = reserveTurns(3);
  assert.deepEqual(await openTurns(turns), [0]);
  turns[0]!.done();
  assert.deepEqual(await openTurns(turns), [0, 1]);
  turns[1]!.done();
  assert.deepEqual(await openTurns(turns), [0, 1, 2]);
});

test('a turn ended before it came (an item that failed early) does not let later ones overtake earlier ones', async () => {
  const turns = reserveTurns(3);
  turns[1]!.done();
  assert.deepEqual(await openTurns(turns), [0], 'turn 2 still waits for turn 0');
  turns[0]!.done();
  assert.deepEqual(await openTurns(turns), [0, 1, 2]);
});
