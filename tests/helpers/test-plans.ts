// Test plans and a test clock: a PLANS_FILE with small or short-lived plans, and a clock that
// tests move by hand (createApp's `now`), so retention and months pass without waiting.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PlanFileEntry } from '../../server/src/accounts/plans.ts';

type Hook = { after: (fn: () => Promise<void>) => void };

/** Writes a PLANS_FILE holding these plans (beside the defaults); removed after the test. */
export async function writePlansFile(t: Hook, plans: PlanFileEntry[]): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-plans-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'plans.json');
  await writeFile(file, JSON.stringify(plans));
  return file;
}

/** A plan with this retention and room for plenty of documents. */
export function planWithRetention(id: string, retention: string | 0): PlanFileEntry {
  return { id, name: id.charAt(0).toUpperCase() + id.slice(1), monthly_documents: 10_000, retention, batch_max_items: 0 };
}

export interface TestClock {
  now: () => Date;
  advance(ms: number): void;
}

/** A clock that stands still until advanced. */
export function testClock(start = new Date()): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
  };
}

export const SECOND = 1000;
export const HOUR = 3600 * SECOND;
export const DAY = 24 * HOUR;
