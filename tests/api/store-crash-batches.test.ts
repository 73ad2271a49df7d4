// The crash suite (issue 12), its batches third: kill -9 the real server at seeded random moments
// during batches, sync and async (two a round): every acknowledged batch is kept, and once all have run the key is charged once per document.
// The suite's engine and its kill counts (17 here in CI, 5 elsewhere): tests/helpers/store-crash.ts.

import { test } from 'node:test';
import { CRASH_ROUNDS, runStoreCrash } from '../helpers/store-crash.ts';

test(`kill -9 at random moments during batches (${CRASH_ROUNDS} kills): nothing acknowledged is lost, every document charged once`, { timeout: 900_000 }, (t) =>
  runStoreCrash(t, 'batches', 'tests/api/store-crash-batches.test.ts'),
);
