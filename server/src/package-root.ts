// Where the package's own files are at run time (migrations, the UI build, scripts that other
// programs run), found the same way from the TypeScript source (server/src/...), the compiled
// server (dist/server/*.mjs) and the desktop bundle (dist/electron/*.mjs, or app.asar): the
// nearest folder above this module whose package.json is Quire's. Paths are then written from
// the package root, never relative to a module, so moving code into a bundle moves nothing.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'quire';

/** The package root: the folder of Quire's package.json. */
export const PACKAGE_ROOT = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

/** A path inside the package, from its root: fromPackageRoot('dist', 'ui'). */
export function fromPackageRoot(...segments: string[]): string {
  return path.join(PACKAGE_ROOT, ...segments);
}

function findPackageRoot(start: string): string {
  for (let at = start; ; at = path.dirname(at)) {
    const manifest = path.join(at, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return at;
    if (at === path.dirname(at)) throw new Error(`no package.json of ${PACKAGE_NAME} above ${start}`);
  }
}
