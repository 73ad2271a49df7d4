// The crash suite (issue 12), its keys third: kill -9 the real server at seeded random moments
// during issuing, rotating and revoking keys (three lanes): every acknowledged change holds after the restart, an unanswered one went one way or the other.
// The suite's engine and its kill counts (17 here in CI, 5 elsewhere): tests/helpers/store-crash.ts.

import { test } from 'node:test';
import { CRASH_ROUNDS, runStoreCrash } from '../helpers/store-crash.ts';

test(`kill -9 at random moments during keys (${CRASH_ROUNDS} kills): nothing acknowledged is lost, every document charged once`, { timeout: 900_000 }, (t) =>
  runStoreCrash(t, 'keys', 'tests/api/store-crash-keys.test.ts'),
);
