// Builds the desktop app's JavaScript into dist/electron: main.mjs (the main process with the
// server bundled in; npm packages stay external and ship in node_modules) and preload.cjs (the
// sandboxed preload, CommonJS and self-contained). Run by `npm run app:build`.
// Split into chunks so the headless server's Chromium launcher (render/browser-host.ts, the only
// runtime user of puppeteer-core) is a chunk main.mjs never loads: the packaged app leaves
// puppeteer-core and its browser download code out (electron-builder.yml).

import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'dist', 'electron');

await rm(outdir, { recursive: true, force: true });
await Promise.all([
  build({
    // The worker threads (server/src/worker-pool.ts) load pdf-worker.mjs and markdown-worker.mjs from beside main.mjs.
    entryPoints: {
      main: path.join(root, 'electron', 'main.ts'),
      'pdf-worker': path.join(root, 'server', 'src', 'pdf', 'pdf-worker.ts'),
      'markdown-worker': path.join(root, 'server', 'src', 'services', 'markdown-worker.ts'),
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
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
