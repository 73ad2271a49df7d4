import { test } from 'node:test';
import assert from 'node:assert/strict';
import { monthOf, nextMonthStart, QuotaExceededError, UsageMeter, type UsageFile } from '../../../server/src/accounts/usage.ts';

/** In-memory usage files that record every save, keyed account/month. */
function memoryFiles(initial: Record<string, number> = {}) {
  const saved = new Map<string, number>(Object.entries(initial));
  const saves: string[] = [];
  let failNext = false;
  const open = async (accountId: string, month: string): Promise<UsageFile> => {
    const name = `${accountId}/${month}`;
    return {
      used: saved.get(name) ?? 0,
      async save(used: number) {
        await new Promise((resolve) => setImmediate(resolve));
        if (failNext) {
          failNext = false;
          throw new Error('disk full');
        }
        saved.set(name, used);
        saves.push(`${name}=${used}`);
      },
    };
  };
  return {
    open,
    saved,
    saves,
    failNextSave: () => {
      failNext = true;
    },
  };
}

const tiny = { id: 'tiny', monthlyDocuments: 3 };

test('concurrent reservations never pass the allowance', async () => {
  const files = memoryFiles();
  const meter = new UsageMeter(files.open, () => new Date('2026-03-10T12:00:00Z'));
  const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => meter.reserve('key_a', tiny)));
  const held = outcomes.filter((outcome) => outcome.status === 'fulfilled');
  const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  assert.equal(held.length, 3);
  assert.equal(refused.length, 17);
  for (const { reason } of refused) {
    assert.ok(reason instanceof QuotaExceededError);
    assert.deepEqual(reason.usage, { month: '2026-03', used: 3, limit: 3, planId: 'tiny' });
  }
  const used = await Promise.all(held.map((outcome) => outcome.value.commit()));
  assert.deepEqual(used.map((usage) => usage.used).sort(), [1, 2, 3]);
  assert.equal(files.saved.get('key_a/2026-03'), 3);
});

test('a released reservation gives the document back without writing anything', async () => {
  const files = memoryFiles();
  const meter = new UsageMeter(files.open, () => new Date('2026-03-10T12:00:00Z'));
  const first = await meter.reserve('key_a', tiny);
  first.release();
  first.release();
  assert.deepEqual(files.saves, []);
  assert.equal((await meter.usage('key_a', tiny)).used, 0);
  for (let i = 0; i < 3; i++) await (await meter.reserve('key_a', tiny)).commit();
  await assert.rejects(meter.reserve('key_a', tiny), QuotaExceededError);
});

test('renders in progress count against the allowance until they settle', async () => {
  const meter = new UsageMeter(memoryFiles().open, () => new Date('2026-03-10T12:00:00Z'));
  const held = [await meter.reserve('key_a', tiny), await meter.reserve('key_a', tiny), await meter.reserve('key_a', tiny)];
  await assert.rejects(meter.reserve('key_a', tiny), QuotaExceededError);
  held[0]!.release();
  const again = await meter.reserve('key_a', tiny);
  assert.equal((await again.commit()).used, 1);
});

test('usage starts from the count on disk', async () => {
  const meter = new UsageMeter(memoryFiles({ 'key_a/2026-03': 2 }).open, () => new Date('2026-03-31T23:59:59Z'));
  assert.equal((await (await meter.reserve('key_a', tiny)).commit()).used, 3);
  await assert.rejects(meter.reserve('key_a', tiny), QuotaExceededError);
});

test('a new calendar month (UTC) starts from zero, and a render that straddles it is charged to the month it reserved in', async () => {
  const files = memoryFiles();
  let now = new Date('2026-01-31T23:59:58Z');
  const meter = new UsageMeter(files.open, () => now);
  await (await meter.reserve('key_a', tiny)).commit();
  await (await meter.reserve('key_a', tiny)).commit();
  const straddling = await meter.reserve('key_a', tiny);
  await assert.rejects(meter.reserve('key_a', tiny), QuotaExceededError);
  now = new Date('2026-02-01T00:00:00Z');
  const february = await (await meter.reserve('key_a', tiny)).commit();
  assert.deepEqual(february, { month: '2026-02', used: 1, limit: 3, planId: 'tiny' });
  assert.equal((await straddling.commit()).month, '2026-01');
  assert.equal(files.saved.get('key_a/2026-01'), 3);
  assert.equal(files.saved.get('key_a/2026-02'), 1);
  assert.equal((await meter.usage('key_a', tiny)).used, 1);
});

test('a count that could not be written is not charged', async () => {
  const files = memoryFiles();
  const meter = new UsageMeter(files.open, () => new Date('2026-03-10T12:00:00Z'));
  files.failNextSave();
  await assert.rejects((await meter.reserve('key_a', tiny)).commit(), /disk full/);
  assert.equal((await meter.usage('key_a', tiny)).used, 0);
  assert.equal((await (await meter.reserve('key_a', tiny)).commit()).used, 1);
});

test('accounts are counted apart', async () => {
  const meter = new UsageMeter(memoryFiles().open, () => new Date('2026-03-10T12:00:00Z'));
  for (let i = 0; i < 3; i++) await (await meter.reserve('key_a', tiny)).commit();
  assert.equal((await (await meter.reserve('key_b', tiny)).commit()).used, 1);
});

test('months are UTC calendar months', () => {
  assert.equal(monthOf(new Date('2026-12-31T23:59:59.999Z')), '2026-12');
  assert.equal(monthOf(new Date('2027-01-01T00:30:00+01:00')), '2026-12');
  assert.equal(nextMonthStart('2026-12'), '2027-01-01');
  assert.equal(nextMonthStart('2026-02'), '2026-03-01');
});

test('a charge tag left open by a crash is settled when the counter loads: kept for a stored document, refunded otherwise, durably', async () => {
  const written: { used: number; charges: readonly string[] }[] = [];
  const open = async (): Promise<UsageFile> => ({
    used: 5,
    charges: ['doc:doc_kept', 'doc:doc_lost', 'bat_x:0'],
    async save(used: number, _at: Date, charges: readonly string[] = []) {
      written.push({ used, charges });
    },
  });
  const meter = new UsageMeter(open, () => new Date('2026-03-10T12:00:00Z'));
  meter.setChargeResolver(async (tag) => (tag === 'doc:doc_kept' ? 'charged' : tag === 'doc:doc_lost' ? 'refund' : undefined));
  assert.equal((await meter.usage('key_a', tiny)).used, 4, 'the document that never came to be is given back');
  assert.deepEqual(written, [{ used: 4, charges: ['bat_x:0'] }], 'settled on disk before use; the batch tag is left to the batch queue');
});

test('refund gives a committed document back and drops its tag in the same write', async () => {
  const files = memoryFiles();
  const meter = new UsageMeter(files.open, () => new Date('2026-03-10T12:00:00Z'));
  const usage = await (await meter.reserve('key_a', tiny)).commit('doc:doc_1');
  assert.equal(usage.used, 1);
  await meter.refund('key_a', usage.month, 'doc:doc_1');
  assert.equal((await meter.usage('key_a', tiny)).used, 0);
  assert.deepEqual(files.saves, ['key_a/2026-03=1', 'key_a/2026-03=0']);
});
