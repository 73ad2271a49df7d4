// The crash suite (issue 12), its renders third: kill -9 the real server at seeded random moments
// during stored renders (three lanes on one key): every acknowledged document is kept, and the key is charged once per stored document.
// The suite's engine and its kill counts (17 here in CI, 5 elsewhere): tests/helpers/store-crash.ts.

import { test } from 'node:test';
import { CRASH_ROUNDS, runStoreCrash } from '../helpers/store-crash.ts';

test(`kill -9 at random moments during renders (${CRASH_ROUNDS} kills): nothing acknowledged is lost, every document charged once`, { timeout: 900_000 }, (t) =>
  runStoreCrash(t, 'renders', 'tests/api/store-crash-renders.test.ts'),
);
