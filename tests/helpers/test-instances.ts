// How many instances a test's server is (the two-instance lane, npm run test:two, sets
// QUIRE_TEST_INSTANCES=2): its own module, so start-app.ts can read it without loading the
// two-instance helpers (two-instances.ts) outside that lane.

/** How many instances startTestServer starts (1 unless QUIRE_TEST_INSTANCES says 2). */
export const testInstances = process.env.QUIRE_TEST_INSTANCES === '2' ? 2 : 1;
