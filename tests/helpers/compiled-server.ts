// The server as `npm start` runs it (scripts/build-server.ts), built into a folder of its own
// under dist/ (so the package root, and with it the migrations and dist/ui, are found as from
// dist/server) and removed when its tests end: never a build older than the source, never one
// another test file is replacing. The api lane builds it once for all its files (run-tests.ts
// --compiled-server hands the folder over in QUIRE_TEST_COMPILED_SERVER); a file run alone builds its own.

import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { buildServer } from '../../scripts/build-server.ts';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The environment variable that hands a lane's build to its files: the build's folder. */
export const COMPILED_SERVER_ENV = 'QUIRE_TEST_COMPILED_SERVER';

let built: Promise<string> | undefined;

/** The folder of the lane's build, or of this process's own (main.mjs, cli.mjs, pdf-worker.mjs and their maps). */
export function compiledServer(): Promise<string> {
  const lanes = process.env[COMPILED_SERVER_ENV];
  if (lanes) return Promise.resolve(lanes);
  if (!built) {
    const out = path.join(REPO_ROOT, 'dist', `server-test-${process.pid}`);
    built = buildServer(out).then(() => out);
    // At exit rather than in an after() hook: called from inside a test, after() would belong to that test.
    process.once('exit', () => rmSync(out, { recursive: true, force: true }));
  }
  return built;
}

/** A lane's build (run-tests.ts --compiled-server), for every file of the lane; remove() deletes it. */
export async function buildLaneServer(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = path.join(REPO_ROOT, 'dist', `server-test-lane-${process.pid}`);
  await buildServer(dir);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** node's arguments to run the compiled server (startServerProcess's entry). */
export async function compiledServerEntry(): Promise<string[]> {
  return ['--enable-source-maps', path.join(await compiledServer(), 'main.mjs')];
}
