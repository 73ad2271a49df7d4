// Contract of the sliding-window rate counts (stores/rate-limits.ts RateLimitStore), run against
// this process's memory (the files setup) and PostgreSQL (stores/pg/rate-limits.ts), where two
// connection pools stand for two instances sharing one limit.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryRateLimits, type RateLimitStore } from '../../server/src/stores/rate-limits.ts';
import { PgRateLimits } from '../../server/src/stores/pg/rate-limits.ts';
import { newId } from '../../server/src/ids.ts';
import { forEachBackend, type Backend } from './backends.ts';

const rule = { limit: 3, windowMs: 60_000 };
const T0 = Date.parse('2026-03-10T12:00:00Z');

function storeOn(backend: Backend): RateLimitStore {
  return backend.kind === 'files' ? new MemoryRateLimits() : new PgRateLimits(backend.database().pool);
}

forEachBackend((backend) => {
  test('a client gets the limit within a window, then refusals that report when the oldest leaves', async () => {
    const rates = storeOn(backend);
    const client = newId('key');
    const takes = [];
    for (const at of [0, 1_000, 2_000, 3_000, 4_000]) takes.push(await rates.take(client, rule, T0 + at));
    assert.deepEqual(
      takes.map((take) => [take.allowed, take.count]),
      [
        [true, 1],
        [true, 2],
        [true, 3],
        [false, 3],
        [false, 3],
      ],
    );
    assert.equal(takes[4]!.oldestAt, T0, 'a refusal is not counted: the window still starts at the first event');
  });

  test('the window slides: an event older than the window frees its place, refusals never held one', async () => {
    const rates = storeOn(backend);
    const client = newId('key');
    for (const at of [0, 10_000, 20_000, 30_000]) await rates.take(client, rule, T0 + at);
    const afterFirst = await rates.take(client, rule, T0 + 60_000);
    assert.deepEqual([afterFirst.allowed, afterFirst.count, afterFirst.oldestAt], [true, 3, T0 + 10_000]);
    const whenFull = await rates.take(client, rule, T0 + 60_001);
    assert.equal(whenFull.allowed, false);
  });

  test('clients are counted apart', async () => {
    const rates = storeOn(backend);
    const [one, two] = [newId('key'), newId('key')];
    for (let i = 0; i < 3; i++) await rates.take(one, rule, T0 + i);
    assert.equal((await rates.take(one, rule, T0 + 10)).allowed, false);
    const other = await rates.take(two, rule, T0 + 10);
    assert.deepEqual([other.allowed, other.count], [true, 1]);
  });

  test('a limit of 0 refuses everything', async () => {
    const rates = storeOn(backend);
    const take = await rates.take(newId('key'), { limit: 0, windowMs: 60_000 }, T0);
    assert.deepEqual([take.allowed, take.count], [false, 0]);
  });

  test('concurrent takes never let more than the limit through', async () => {
    const rates = storeOn(backend);
    const client = newId('key');
    const takes = await Promise.all(Array.from({ length: 20 }, (_, at) => rates.take(client, { limit: 7, windowMs: 60_000 }, T0 + at)));
    assert.equal(takes.filter((take) => take.allowed).length, 7);
  });

  if (backend.kind === 'postgresql') {
    test('two instances count one limit for a client', async () => {
      const first = storeOn(backend);
      const second = new PgRateLimits((await backend.otherInstance()).pool);
      const client = newId('key');
      const takes = await Promise.all(Array.from({ length: 10 }, (_, at) => (at % 2 ? first : second).take(client, rule, T0 + at)));
      assert.equal(takes.filter((take) => take.allowed).length, 3);
    });

    test('the sweep drops clients idle for a whole window and keeps the rest', async () => {
      const rates = storeOn(backend);
      const [idle, busy] = [newId('key'), newId('key')];
      const later = T0 + 10 * 60_000;
      await rates.take(idle, rule, later);
      await rates.take(busy, rule, later + 30_000);
      // A new store sweeps on its first take.
      await new PgRateLimits(backend.database().pool).take(newId('key'), rule, later + 61_000);
      const { rows } = await backend.database().pool.query<{ client: string }>('SELECT client FROM rate_limits WHERE client = ANY($1)', [[idle, busy]]);
      assert.deepEqual(
        rows.map((row) => row.client),
        [busy],
      );
    });
  }
});
