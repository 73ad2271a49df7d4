// The esbuild options the server's bundles share (scripts/build-server.ts for `npm start`,
// scripts/build-electron.ts for the desktop app): ESM for Node, npm packages left external (they
// ship in node_modules), source maps beside the files for stack traces in logs.

import type { BuildOptions } from 'esbuild';

export const NODE_BUNDLE: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  outExtension: { '.js': '.mjs' },
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
};

/** The worker threads' entries: server/src/worker-pool.ts loads each .mjs from beside the bundle that starts it. */
export const WORKER_ENTRIES = {
  'pdf-worker': 'server/src/pdf/pdf-worker.ts',
  'markdown-worker': 'server/src/services/markdown/worker.ts',
  'sign-worker': 'server/src/signing/sign-worker.ts',
  'einvoice-rules-worker': 'server/src/einvoice/check/rules-worker.ts',
  'drawing-worker': 'server/src/render/quire-elements/drawing-worker.ts',
};
