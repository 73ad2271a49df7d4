// No source file grows past 300 lines (STYLE.md): a longer one is split along a seam it already
// has. Counted over what the project writes: the server, the admin UI (its style sheets too), the
// desktop shell, scripts, the bench and the tests.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FOLDERS = ['server/src', 'ui/src', 'electron', 'scripts', 'bench', 'tests'];
const SOURCE = /\.(ts|tsx|mts|mjs|css|py|sh)$/;
const MAX_LINES = 300;

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'results' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

test(`no source file is longer than ${MAX_LINES} lines`, () => {
  const long: string[] = [];
  for (const folder of FOLDERS)
    for (const file of sources(path.join(ROOT, folder))) {
      const lines = readFileSync(file, 'utf8').split('\n').length - 1;
      if (lines > MAX_LINES) long.push(`${path.relative(ROOT, file)}: ${lines}`);
    }
  assert.deepEqual(long, []);
});
