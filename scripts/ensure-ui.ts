// `npm start` runs this first: builds the web UI (admin window and playground) when dist/ui is
// missing, so the quick start works in two commands. Without vite (a production install that
// left out dev packages) it says so and the server still starts, serving a page that explains.

import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(path.join(root, 'dist', 'ui', 'index.html'))) {
  let vite: string | undefined;
  try {
    vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  } catch {
    console.warn('The web UI is not built and vite is not installed: /admin and /playground will say so. Run `npm ci && npm run build`.');
  }
  if (vite) {
    console.log('Building the web UI (first start)...');
    const result = spawnSync(process.execPath, [vite, 'build', '--config', 'ui/vite.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) console.warn('The web UI build failed; the API still starts. Run `npm run build` to see why.');
  }
}
