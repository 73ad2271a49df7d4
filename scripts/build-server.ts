// Builds the headless server into dist/server as plain JavaScript for `npm start` and `npm run cli`:
// main.mjs (the server), cli.mjs (the CLI), pdf-worker.mjs and markdown-worker.mjs (worker threads), each one
// self-contained bundle of our code (no shared chunks: the worker is found beside the bundle that
// starts it) with npm packages external and source maps (node --enable-source-maps). Files the
// code reads at run time (migrations, dist/ui) are found from the package root
// (server/src/package-root.ts), so nothing is copied. Run by `npm run build` (and `npm run build:server`).

import { build } from 'esbuild';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { NODE_BUNDLE, WORKER_ENTRIES } from './node-bundle.ts';

const root = path.resolve(import.meta.dirname, '..');

/**
 * Builds into outdir (inside the package, so the package root is found from it). Each file is
 * written beside it first and renamed into place, so a server or CLI starting meanwhile reads a
 * whole old file or a whole new one.
 */
export async function buildServer(outdir: string): Promise<void> {
  await mkdir(path.dirname(outdir), { recursive: true });
  const staging = await mkdtemp(`${outdir}.building-`);
  try {
    await build({
      ...NODE_BUNDLE,
      absWorkingDir: root,
      entryPoints: { main: 'server/src/main.ts', cli: 'server/src/cli.ts', ...WORKER_ENTRIES },
      outdir: staging,
      // Node 22 is the oldest supported (package.json engines).
      target: 'node22',
    });
    await mkdir(outdir, { recursive: true });
    for (const file of await readdir(staging)) await rename(path.join(staging, file), path.join(outdir, file));
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const outdir = path.join(root, 'dist', 'server');
  await buildServer(outdir);
  // stderr: `npm run -s cli` may build first, and its stdout is the command's answer alone.
  console.error(`built ${path.relative(root, outdir)}/main.mjs, cli.mjs and the worker threads' .mjs`);
}
