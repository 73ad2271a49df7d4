// The admin window's one day count and one clock (ui/src/lib/format.ts), issue 39 item 17: the
// Certificates screen said 19 days where the API, receipts and the playground said 20 (it rounded
// down, the server up), and Activity printed "08:15:32 PM" beside 24-hour times everywhere else.
// Under node the window's locale is en-US, whose habit is the 12-hour clock.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { daysUntil, formatClock } from '../../../ui/src/lib/format.ts';

const NOW = Date.parse('2026-11-27T12:00:00.000Z');

test('days left count a part day as a day, as the server does', () => {
  assert.equal(daysUntil('2026-12-17T08:30:00.000Z', NOW), 20);
  assert.equal(daysUntil('2026-11-28T06:00:00.000Z', NOW), 1);
  assert.equal(daysUntil('2026-11-27T12:00:00.000Z', NOW), 0);
  assert.ok(daysUntil('2026-11-20T12:00:00.000Z', NOW) < 0);
});

test('times of day are 24-hour, with seconds when asked', () => {
  const evening = new Date(2026, 10, 27, 20, 15, 32);
  assert.equal(formatClock(evening, true), '20:15:32');
  assert.equal(formatClock(evening), '20:15');
  assert.doesNotMatch(formatClock(evening.getTime(), true), /AM|PM/);
});
