// The shared test server's process (started by shared-server.ts for the lane runner): one server
// made exactly as startTestServer makes a test's own, its URL and admin token printed as one JSON
// line; it stops, with its Chromium and temporary DATA_DIR, when its stdin closes.

import { startTestServer } from './start-app.ts';

const cleanups: (() => unknown)[] = [];
const server = await startTestServer({ after: (fn: () => unknown) => cleanups.push(fn) });
process.stdout.write(`${JSON.stringify({ url: server.url, adminToken: server.adminToken })}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  // In the order given, as node:test runs after hooks: the app closes, then its DATA_DIR goes.
  for (const cleanup of cleanups) await cleanup();
  process.exit(0);
});
