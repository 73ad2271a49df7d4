// Contract of the monthly usage ledger (accounts/usage.ts UsageLedger), run against the files
// (UsageMeter over DATA_DIR/usage) and PostgreSQL (stores/pg/usage-ledger.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QuotaExceededError, UsageMeter, type UsageLedger } from '../../server/src/accounts/usage.ts';
import { UsageStore } from '../../server/src/stores/usage.ts';
import { PgUsageLedger } from '../../server/src/stores/pg/usage-ledger.ts';
import { newId } from '../../server/src/ids.ts';
import { forEachBackend, type Backend } from './backends.ts';

const plan = (monthlyDocuments: number) => ({ id: 'tiny', monthlyDocuments });
let clock = new Date('2026-03-10T12:00:00Z');
const now = () => clock;

async function ledgerOn(backend: Backend): Promise<UsageLedger> {
  if (backend.kind === 'files') {
    const usage = new UsageStore(await backend.dataDir());
    return new UsageMeter((accountId, month) => usage.open(accountId, month), now);
  }
  return new PgUsageLedger(backend.database().pool, now);
}

forEachBackend((backend) => {
  test('concurrent reservations never pass the allowance, and commits count', async () => {
    const ledger = await ledgerOn(backend);
    const key = newId('key');
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => ledger.reserve(key, plan(5))));
    const held = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    assert.equal(held.length, 5);
    for (const outcome of outcomes) if (outcome.status === 'rejected') assert.ok(outcome.reason instanceof QuotaExceededError);
    const used = await Promise.all(held.map((reservation) => reservation.commit()));
    assert.deepEqual(used.map((usage) => usage.used).sort(), [1, 2, 3, 4, 5]);
    assert.deepEqual(await ledger.usage(key, plan(5)), { month: '2026-03', used: 5, limit: 5, planId: 'tiny' });
  });

  test('a released reservation gives its document back and counts nothing', async () => {
    const ledger = await ledgerOn(backend);
    const key = newId('key');
    const first = await ledger.reserve(key, plan(1));
    await assert.rejects(ledger.reserve(key, plan(1)), QuotaExceededError);
    await first.release();
    await first.release();
    assert.equal((await ledger.usage(key, plan(1))).used, 0);
    await (await ledger.reserve(key, plan(1))).commit();
    await assert.rejects(ledger.reserve(key, plan(1)), (error: unknown) => error instanceof QuotaExceededError && error.usage.used === 1);
  });

  test('a plan with no documents refuses every reservation', async () => {
    const ledger = await ledgerOn(backend);
    await assert.rejects(ledger.reserve(newId('key'), plan(0)), QuotaExceededError);
  });

  test('a new month starts from zero', async () => {
    const ledger = await ledgerOn(backend);
    const key = newId('key');
    clock = new Date('2026-03-31T23:59:59Z');
    await (await ledger.reserve(key, plan(1))).commit();
    clock = new Date('2026-04-01T00:00:00Z');
    try {
      assert.equal((await ledger.usage(key, plan(1))).used, 0);
      assert.equal((await (await ledger.reserve(key, plan(1))).commit()).used, 1);
    } finally {
      clock = new Date('2026-03-10T12:00:00Z');
    }
  });

  test('charge tags are found until settled, by tag or by prefix', async () => {
    const ledger = await ledgerOn(backend);
    const key = newId('key');
    await (await ledger.reserve(key, plan(10))).commit('bat_a:0');
    await (await ledger.reserve(key, plan(10))).commit('bat_a:1');
    await (await ledger.reserve(key, plan(10))).commit('bat_b:0');
    assert.equal(await ledger.wasCharged(key, 'bat_a:0', '2026-01'), true);
    assert.equal(await ledger.wasCharged(key, 'bat_a:2', '2026-01'), false);
    assert.equal(await ledger.wasCharged(newId('key'), 'bat_a:0', '2026-01'), false);
    await ledger.settleCharges(key, ['bat_a:0']);
    assert.equal(await ledger.wasCharged(key, 'bat_a:0', '2026-01'), false);
    assert.equal(await ledger.wasCharged(key, 'bat_a:1', '2026-01'), true);
    await ledger.settleCharges(key, [], 'bat_a:');
    assert.equal(await ledger.wasCharged(key, 'bat_a:1', '2026-01'), false);
    assert.equal(await ledger.wasCharged(key, 'bat_b:0', '2026-01'), true);
  });

  if (backend.kind === 'postgresql') {
    test('40 concurrent reservations on a 20-document plan over two instances: exactly 20, usage 20', async () => {
      const other = await backend.otherInstance();
      const ledgers = [new PgUsageLedger(backend.database().pool, now), new PgUsageLedger(other.pool, now)];
      const key = newId('key');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 40 }, async (_, i) => {
          const reservation = await ledgers[i % 2]!.reserve(key, plan(20));
          return reservation.commit();
        }),
      );
      assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 20);
      for (const outcome of outcomes) if (outcome.status === 'rejected') assert.ok(outcome.reason instanceof QuotaExceededError);
      assert.equal((await ledgers[1]!.usage(key, plan(20))).used, 20);
    });

    test('holds of an instance that died are given back once they expire', async () => {
      const { pool } = backend.database();
      const ledger = new PgUsageLedger(pool, now);
      const key = newId('key');
      await ledger.reserve(key, plan(1));
      await assert.rejects(ledger.reserve(key, plan(1)), QuotaExceededError);
      // The instance holding it is gone: its hold outlives every render's budget.
      await pool.query("UPDATE usage_holds SET expires_at = now() - interval '1 second' WHERE key_id = $1", [key]);
      const next = await ledger.reserve(key, plan(1));
      assert.equal((await next.commit()).used, 1);
      const { rows } = await pool.query('SELECT used, held FROM usage_months WHERE key_id = $1', [key]);
      assert.deepEqual(rows, [{ used: 1, held: 0 }]);
    });
  }
});
