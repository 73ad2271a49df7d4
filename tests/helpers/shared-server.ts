// The api lane's shared server: one app with one Chromium, started by the lane runner
// (scripts/run-tests.ts --shared-server) and served to every file of the lane whose server needs
// nothing of its own, so the lane starts one Chromium instead of one per test. Each test still
// makes its own key, so its data stays its own (which also tests tenant isolation, a product promise).
// A file that reads the server's insides (app, DATA_DIR) or server-wide state (metrics, /health,
// every tenant's lists) says `// test-lane: own-server` in its first 20 lines and starts its own;
// so does any startTestServer call with settings, collaborators or an engine of its own.

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { App } from '../../server/src/app.ts';

/** The environment variable that hands the shared server to a test file: JSON of {url, adminToken}. */
export const SHARED_SERVER_ENV = 'QUIRE_TEST_SHARED_SERVER';

export interface SharedServer {
  url: string;
  adminToken: string;
}

/** What startTestServer builds its handle on; app and dataDir are functions so the shared one can refuse them. */
export interface ServerParts {
  app: () => App;
  url: string;
  dataDir: () => string;
  adminToken: string;
}

/** The lane's shared server, when this file runs in a lane that has one. */
export function sharedServer(): SharedServer | undefined {
  const value = process.env[SHARED_SERVER_ENV];
  return value ? (JSON.parse(value) as SharedServer) : undefined;
}

/** Parts on the shared server: its insides are in another process, so reading them says what to do. */
export function sharedServerHandle(shared: SharedServer): ServerParts {
  const refuse = (what: string) => () => {
    throw new Error(`this test reads the shared server's ${what}: give its file a "// test-lane: own-server" line (tests/helpers/shared-server.ts)`);
  };
  return { app: refuse('app'), url: shared.url, dataDir: refuse('DATA_DIR'), adminToken: shared.adminToken };
}

/**
 * Starts the shared server in a process of its own (tests/helpers/shared-server-main.ts, with the
 * lane's environment: engine, fake pages); resolves once it listens. stop() ends it and its Chromium.
 */
export async function startSharedServer(): Promise<{ server: SharedServer; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/shared-server-main.ts'], {
    env: { ...process.env, [SHARED_SERVER_ENV]: '' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const firstLine = await new Promise<string | undefined>((resolve) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.on('close', () => resolve(undefined));
  });
  if (!firstLine) throw new Error('the shared test server ended before it listened (its error is above)');
  // It stops when its stdin closes: also when this runner dies without stopping it.
  const stop = async () => {
    child.stdin.end();
    await ended;
  };
  return { server: JSON.parse(firstLine) as SharedServer, stop };
}
