// The desktop main process as `npm run app:build` builds it (scripts/build-electron.ts), into a
// folder of this test process's own under dist/ and removed when the process exits: CI runs the
// electron files on two Node lines at once in one checkout, and a shared dist/electron let one
// line load main.mjs while the other had just removed it.

import { rmSync } from 'node:fs';
import path from 'node:path';
import { buildElectron } from '../../scripts/build-electron.ts';
import { REPO_ROOT } from './compiled-server.ts';

let built: Promise<string> | undefined;

/** The folder of this process's build of the desktop app (main.mjs, preload.cjs, workers, chunks). */
export function electronBuild(): Promise<string> {
  if (!built) {
    const out = path.join(REPO_ROOT, 'dist', `electron-test-${process.pid}`);
    built = buildElectron(out).then(() => out);
    // At exit rather than in an after() hook: the folder outlives every test of the file.
    process.once('exit', () => rmSync(out, { recursive: true, force: true }));
  }
  return built;
}
