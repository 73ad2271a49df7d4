// `npm start` and `npm run cli` run this first (plain node: no TypeScript at run time). It builds
// what is missing or older than its sources: the server (dist/server, scripts/build-server.ts) and,
// for `npm start`, the web UI (dist/ui). Without the dev packages (a production install that left
// them out) it says so: a server already built still starts, the UI page says how to build it.
// A build that succeeds prints nothing (`npm run -s cli -- keys create` prints the key alone, and
// nothing else); a failed one prints its output and what to do, on stderr.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const serverOnly = process.argv.includes('--server-only');

/** The newest modification time of the .ts files under folder (0 when there are none). */
function newestSource(folder) {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

function installed(name) {
  try {
    return require.resolve(name);
  } catch {
    return undefined;
  }
}

function run(what, args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status === 0) return true;
  console.error(`Building ${what} failed:\n${result.stdout}${result.stderr}`);
  return false;
}

const serverBuild = path.join(root, 'dist', 'server', 'main.mjs');
const serverBuilt = existsSync(serverBuild) && existsSync(path.join(root, 'dist', 'server', 'cli.mjs'));
if (!serverBuilt || statSync(serverBuild).mtimeMs < newestSource(path.join(root, 'server', 'src'))) {
  const tsx = installed('tsx/cli') && installed('esbuild');
  if (!tsx) {
    console.error(
      serverBuilt
        ? 'quire: the server build is older than its sources and esbuild is not installed: running the build as it is.'
        : 'quire: the server is not built and esbuild is not installed: run `npm ci && npm run build`.',
    );
    if (!serverBuilt) process.exit(1);
  } else if (!run('the server', [installed('tsx/cli'), 'scripts/build-server.ts']) && !serverBuilt) {
    console.error('quire: the server build failed: run `npm run build:server` to see why.');
    process.exit(1);
  }
}

if (!serverOnly && !existsSync(path.join(root, 'dist', 'ui', 'index.html'))) {
  const vite = installed('vite/package.json');
  if (!vite) {
    console.error('The web UI is not built and vite is not installed: /admin and /playground will say so. Run `npm ci && npm run build`.');
  } else {
    console.error('Building the web UI (first start, about a minute)...');
    const args = [path.join(path.dirname(vite), 'bin', 'vite.js'), 'build', '--config', 'ui/vite.config.ts', '--logLevel', 'warn'];
    if (!run('the web UI', args)) console.error('The web UI build failed; the API still starts. Run `npm run build` to see why.');
  }
}
