// The server of one e2e worker: the compiled server (built once for the run by global-setup.ts)
// in a process of its own, as `npm start` runs it, on port 0 with a temporary DATA_DIR and a known
// admin token. A process, not the app loaded into the worker: the worker then never loads the
// server's TypeScript, which cost each worker about 10 s of CPU (docs/testing.md, the e2e lane).

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServerProcess } from '../helpers/server-process.ts';
import { testServerOn, type TestServer } from '../helpers/start-app.ts';

export async function startWorkerServer(): Promise<{ server: TestServer; stop: () => Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-e2e-'));
  const adminToken = `adm_test_${randomBytes(16).toString('hex')}`;
  // LibreOffice starts on the first office conversion, as for a test's own server (start-app.ts).
  // Up to 170 s to listen (server-process.ts), inside the fixture's 180 s.
  const env = { DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, PLAYGROUND_RATE_LIMIT: '100', OFFICE_WARM_AT_START: 'false' };
  const child = await startServerProcess(env).catch(async (error: unknown) => {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  const inOtherProcess = (what: string) => () => {
    throw new Error(`the e2e server runs in a process of its own: its ${what} cannot be read from a spec (ask it over HTTP)`);
  };
  const server = await testServerOn({ app: inOtherProcess('app'), url: child.url, dataDir: () => dataDir, adminToken });
  const stop = async () => {
    // SIGTERM: the server shuts down as in production (its Chromium and LibreOffice with it).
    const exited = new Promise<void>((resolve) => (child.child.exitCode === null ? child.child.once('exit', () => resolve()) : resolve()));
    child.child.kill('SIGTERM');
    // A shutdown that hangs still ends: then as a crash, its Chromium ended with it.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 30_000)));
    if ((await Promise.race([exited, late])) === 'late') await child.crash();
    clearTimeout(timer);
    await rm(dataDir, { recursive: true, force: true });
  };
  return { server, stop };
}
