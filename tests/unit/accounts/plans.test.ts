import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadPlans, parsePlansFile, PlansFileError, retentionSeconds, toPlanEntry } from '../../../server/src/accounts/plans.ts';
import { ConfigError } from '../../../server/src/config.ts';

test('the built-in plans are the five of docs/api.md', async () => {
  const plans = await loadPlans('');
  assert.deepEqual([...plans.values()].map(toPlanEntry), [
    { id: 'free', name: 'Free', monthly_documents: 100, retention: '1d', batch_max_items: 0, concurrency: 1 },
    { id: 'starter', name: 'Starter', monthly_documents: 1000, retention: '30d', batch_max_items: 10, concurrency: 2 },
    { id: 'growth', name: 'Growth', monthly_documents: 10000, retention: '1y', batch_max_items: 50, concurrency: 4 },
    { id: 'scale', name: 'Scale', monthly_documents: 50000, retention: '2y', batch_max_items: 100, concurrency: 8 },
    { id: 'business', name: 'Business', monthly_documents: 250000, retention: '2y', batch_max_items: 250, concurrency: 16 },
  ]);
  assert.equal(plans.get('starter')!.retentionSeconds, 30 * 86_400);
});

test('PLANS_FILE replaces a default plan with the same id and adds the others', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-plans-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'plans.json');
  await writeFile(
    file,
    JSON.stringify([
      { id: 'starter', name: 'Starter+', monthly_documents: 2000, retention: '60d', batch_max_items: 20 },
      { id: 'tiny', name: 'Tiny', monthly_documents: 10, retention: 0, batch_max_items: 0, concurrency: 3 },
      { id: 'hourly', name: 'Hourly', monthly_documents: 5, retention: '0', batch_max_items: 1 },
    ]),
  );
  const plans = await loadPlans(file);
  assert.deepEqual([...plans.keys()], ['free', 'starter', 'growth', 'scale', 'business', 'tiny', 'hourly']);
  assert.equal(plans.get('starter')!.monthlyDocuments, 2000);
  assert.equal(plans.get('starter')!.name, 'Starter+');
  assert.equal(plans.get('tiny')!.retentionSeconds, 0);
  assert.equal(plans.get('hourly')!.retention, 0, '"0" is read as 0');
  assert.equal(plans.get('free')!.monthlyDocuments, 100, 'untouched defaults stay');
  assert.equal(plans.get('tiny')!.concurrency, 3, 'concurrency as the file gives it');
  assert.equal(plans.get('starter')!.concurrency, 2, 'a replaced default plan keeps its built-in concurrency when the file gives none');
  assert.equal(plans.get('hourly')!.concurrency, 4, 'a new plan with no concurrency is not throttled to one');
});

test('retention is 0 or a number with s, m, h, d or y', () => {
  assert.equal(retentionSeconds(0), 0);
  assert.equal(retentionSeconds('0'), 0);
  assert.equal(retentionSeconds('90s'), 90);
  assert.equal(retentionSeconds('15m'), 900);
  assert.equal(retentionSeconds('12h'), 43_200);
  assert.equal(retentionSeconds('1d'), 86_400);
  assert.equal(retentionSeconds('2y'), 2 * 365 * 86_400);
});

function failureOf(text: string): string {
  try {
    parsePlansFile(text, '/etc/quire/plans.json');
  } catch (error) {
    assert.ok(error instanceof PlansFileError);
    assert.ok(error instanceof ConfigError, 'printed as one line by main.ts like any setting error');
    return error.message;
  }
  assert.fail('the plans file was accepted');
}

const good = { id: 'gold', name: 'Gold', monthly_documents: 5, retention: '1d', batch_max_items: 0 };

test('a bad plans file is refused with the file, the entry and the field named', () => {
  const cases: [unknown, RegExp][] = [
    [
      [good, { ...good, id: 'silver', monthly_documents: 'lots' }],
      /^PLANS_FILE \/etc\/quire\/plans\.json: entry 1 \(id "silver"\): monthly_documents must be a whole number from 0 to 1000000000 \(got "lots"\)$/,
    ],
    [[{ ...good, monthly_documents: -1 }], /entry 0 \(id "gold"\): monthly_documents must be a whole number/],
    [[{ ...good, monthly_documents: 1.5 }], /entry 0 \(id "gold"\): monthly_documents must be a whole number/],
    [[{ ...good, retention: '30 days' }], /entry 0 \(id "gold"\): retention must be 0 or a string such as "30d".*\(got "30 days"\)/],
    [[{ ...good, retention: 30 }], /entry 0 \(id "gold"\): retention must be 0 or a string/],
    [[{ ...good, batch_max_items: 100_000 }], /entry 0 \(id "gold"\): batch_max_items must be a whole number from 0 to 10000/],
    [[{ ...good, id: 'Gold Plan' }], /entry 0 \(id "Gold Plan"\): id must be 1 to 32 characters/],
    [[{ ...good, name: '' }], /entry 0 \(id "gold"\): name must be a non-empty string/],
    [[{ id: 'gold', name: 'Gold', retention: '1d', batch_max_items: 0 }], /entry 0 \(id "gold"\): monthly_documents is required/],
    [
      [{ ...good, monthly_docs: 5 }],
      /entry 0 \(id "gold"\): monthly_docs is not a plan field \(the fields are id, name, monthly_documents, retention, batch_max_items, concurrency\)/,
    ],
    [[{ ...good, concurrency: 0 }], /entry 0 \(id "gold"\): concurrency must be a whole number from 1 to 1000/],
    [[good, 'silver'], /entry 1 must be an object/],
    [[good, { ...good }], /entry 1 \(id "gold"\): id "gold" is already used by entry 0/],
    [{ plans: [good] }, /plans\.json: must be a JSON array of plans/],
  ];
  for (const [content, expected] of cases) {
    assert.match(failureOf(JSON.stringify(content)), expected, JSON.stringify(content));
  }
  assert.match(failureOf('[{"id": "gold",'), /^PLANS_FILE \/etc\/quire\/plans\.json: is not valid JSON/);
});

test('a plans file that cannot be read names the file', async () => {
  await assert.rejects(loadPlans('/nonexistent/plans.json'), /PLANS_FILE \/nonexistent\/plans\.json: cannot be read \(ENOENT\)/);
});
