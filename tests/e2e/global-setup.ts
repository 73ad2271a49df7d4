// Before any e2e worker starts: the UI is built when dist/ui is not the build of the UI as it is now
// (scripts/ui-build-inputs.ts: a stale UI is never tested, a current one is not built again), and
// the server is compiled once for the run (each worker runs it as `npm start` does:
// worker-server.ts). Returns the teardown that removes that build.

import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { staleUiBuild } from '../../scripts/ui-build-inputs.ts';
import { buildLaneServer, COMPILED_SERVER_ENV, REPO_ROOT } from '../helpers/compiled-server.ts';

function ensureUiBuild(): void {
  const stale = staleUiBuild();
  if (!stale) return;
  console.log(`Building the UI: dist/ui ${stale}.`);
  const vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  const built = spawnSync(process.execPath, [vite, 'build', '--config', 'ui/vite.config.ts', '--logLevel', 'warn'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the UI build failed (its output is above)');
  const still = staleUiBuild();
  if (still) throw new Error(`dist/ui is still not current after the build: ${still}`);
}

export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  ensureUiBuild();
  // A build handed in (QUIRE_TEST_COMPILED_SERVER) is used as it is; otherwise this run's own.
  if (process.env[COMPILED_SERVER_ENV]) return undefined;
  const server = await buildLaneServer();
  process.env[COMPILED_SERVER_ENV] = server.dir;
  return server.remove;
}
