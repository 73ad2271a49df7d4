// Builds the desktop app's JavaScript into dist/electron: main.mjs (the main process with the
// server bundled in; npm packages stay external and ship in node_modules) and preload.cjs (the
// sandboxed preload, CommonJS and self-contained). Run by `npm run app:build`.
// Split into chunks so the headless server's Chromium launcher (render/browser-host.ts, the only
// runtime user of puppeteer-core) is a chunk main.mjs never loads: the packaged app leaves
// puppeteer-core and its browser download code out (electron-builder.yml).

import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { NODE_BUNDLE, WORKER_ENTRIES } from './node-bundle.ts';

const root = path.resolve(import.meta.dirname, '..');

/**
 * Builds into outdir, replacing what was there. Tests pass a folder of their own beside
 * dist/electron (same depth, so the package root and dist/ui are found the same way): two test
 * processes rebuilding one folder race, one loading main.mjs while the other has just removed it.
 */
export async function buildElectron(outdir = path.join(root, 'dist', 'electron')): Promise<void> {
  await rm(outdir, { recursive: true, force: true });
  await Promise.all([
    build({
      ...NODE_BUNDLE,
      absWorkingDir: root,
      // The worker threads (server/src/worker-pool.ts) load pdf-worker.mjs and markdown-worker.mjs from beside main.mjs.
      entryPoints: { main: 'electron/main.ts', ...WORKER_ENTRIES },
      outdir,
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      target: 'node22',
    }),
    build({
      entryPoints: { preload: path.join(root, 'electron', 'preload.ts') },
      outdir,
      outExtension: { '.js': '.cjs' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'chrome120',
      external: ['electron'],
      logLevel: 'warning',
    }),
  ]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const outdir = path.join(root, 'dist', 'electron');
  await buildElectron(outdir);
  console.log(`built ${path.relative(root, outdir)}/main.mjs, pdf-worker.mjs, markdown-worker.mjs and preload.cjs`);
}
