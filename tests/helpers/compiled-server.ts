// The server as `npm start` runs it (scripts/build-server.ts), built once per test process into a
// folder of its own under dist/ (so the package root, and with it the migrations and dist/ui, are
// found as from dist/server) and removed when the process's tests end: never a build older than
// the source, never one another test file is replacing.

import { rmSync } from 'node:fs';
import path from 'node:path';
import { buildServer } from '../../scripts/build-server.ts';
import { REPO_ROOT } from './server-process.ts';

let built: Promise<string> | undefined;

/** The folder of this process's build (main.mjs, cli.mjs, pdf-worker.mjs and their maps). */
export function compiledServer(): Promise<string> {
  if (!built) {
    const out = path.join(REPO_ROOT, 'dist', `server-test-${process.pid}`);
    built = buildServer(out).then(() => out);
    // At exit rather than in an after() hook: called from inside a test, after() would belong to that test.
    process.once('exit', () => rmSync(out, { recursive: true, force: true }));
  }
  return built;
}

/** node's arguments to run the compiled server (startServerProcess's entry). */
export async function compiledServerEntry(): Promise<string[]> {
  return ['--enable-source-maps', path.join(await compiledServer(), 'main.mjs')];
}
