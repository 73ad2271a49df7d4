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
const outdir = path.join(root, 'dist', 'electron');

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
console.log(`built ${path.relative(root, outdir)}/main.mjs, pdf-worker.mjs, markdown-worker.mjs and preload.cjs`);
