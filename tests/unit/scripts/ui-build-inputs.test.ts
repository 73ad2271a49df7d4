// scripts/ui-build-inputs.ts: a real vite build of a small UI records what it was made from, and the
// check calls that build current until one of its inputs changes (a module, an imported file, a
// public file added) or the build is gone: the e2e lane builds the UI again exactly then.

import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { build } from 'vite';
import { recordBuildInputs, staleUiBuild } from '../../../scripts/ui-build-inputs.ts';

test('a build is current until a module, a public file or the build itself changes', async (t) => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'quire-ui-inputs-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const outDir = path.join(root, 'dist');
  const publicDir = path.join(root, 'public');
  await writeFile(path.join(root, 'index.html'), '<!doctype html><script type="module" src="/main.js"></script>');
  await writeFile(path.join(root, 'main.js'), "import { greeting } from './greeting.js';\ndocument.title = greeting;\n");
  await writeFile(path.join(root, 'greeting.js'), "export const greeting = 'hello';\n");
  await mkdir(publicDir);
  await writeFile(path.join(publicDir, 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const buildIt = () => build({ root, configFile: false, logLevel: 'silent', publicDir, plugins: [recordBuildInputs()], build: { outDir, emptyOutDir: true } });

  assert.match(staleUiBuild(outDir, publicDir) ?? '', /not built/);
  await buildIt();
  assert.equal(staleUiBuild(outDir, publicDir), undefined);

  // A module the entry imports changes: stale, named; built again: current.
  await writeFile(path.join(root, 'greeting.js'), "export const greeting = 'hello again';\n");
  assert.match(staleUiBuild(outDir, publicDir) ?? '', /greeting\.js changed$/);
  await buildIt();
  assert.equal(staleUiBuild(outDir, publicDir), undefined);

  // A public file added (nothing imports it: the build copies it).
  await writeFile(path.join(publicDir, 'robots.txt'), 'User-agent: *\n');
  assert.equal(staleUiBuild(outDir, publicDir), 'a public file was added or removed');
  await buildIt();
  assert.equal(staleUiBuild(outDir, publicDir), undefined);

  // The build removed (its index.html gone): not current.
  await unlink(path.join(outDir, 'index.html'));
  assert.match(staleUiBuild(outDir, publicDir) ?? '', /not built/);
});
