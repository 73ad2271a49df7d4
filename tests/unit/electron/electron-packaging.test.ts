// What the packaged desktop app carries (electron-builder.yml against the built bundle): none of
// the headless server's own packages, everything the bundle loads, and Electron's fuses set so the
// app cannot be run as a plain Node or opened to a debugger. The installer itself is built by hand
// (npm run app:dist, with internet); this checks its inputs everywhere.

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { electronBuild } from '../../helpers/electron-build.ts';
import path from 'node:path';
import { BLOCK_END, BLOCK_START, exclusionBlock, headlessOnlyPackages, packagesLoadedByBundle } from '../../../scripts/desktop-packages.ts';

const REPO = path.resolve(import.meta.dirname, '..', '..', '..');
const yml = () => readFileSync(path.join(REPO, 'electron-builder.yml'), 'utf8');

let bundle = '';
before(async () => {
  bundle = await electronBuild();
});

test("the built main process loads none of the headless server's packages: puppeteer-core only from a chunk it never imports statically", () => {
  const loaded = packagesLoadedByBundle(bundle);
  for (const name of ['puppeteer-core', '@sparticuz/chromium', 'tsx', '@puppeteer/browsers'])
    assert.ok(!loaded.includes(name), `${name} is loaded by the desktop bundle`);
  for (const name of ['express', 'pino', 'zod', 'swagger-ui-dist']) assert.ok(loaded.includes(name), `${name} should be loaded`);
});

test('electron-builder.yml excludes exactly the production packages the desktop bundle does not need', () => {
  const text = yml();
  const block = text.slice(text.indexOf(BLOCK_START), text.indexOf(BLOCK_END) + BLOCK_END.length);
  const { excluded } = headlessOnlyPackages(bundle);
  assert.equal(block, exclusionBlock(excluded), 'run `tsx scripts/desktop-packages.ts --write` and commit electron-builder.yml');
  for (const name of ['puppeteer-core', '@puppeteer', '@sparticuz']) assert.ok(excluded.includes(name), name);
  for (const name of ['express', 'pino', 'zod', 'swagger-ui-dist']) assert.ok(!excluded.includes(name), name);
  // tsx runs only development and tests (npm start runs dist/server): a dev package, never packed.
  const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  assert.ok(!('tsx' in manifest.dependencies) && 'tsx' in manifest.devDependencies, 'tsx is a dev dependency');
});

test('Electron fuses: no run-as-Node, no NODE_OPTIONS, no inspector flags, code only from an integrity-checked app.asar', () => {
  const fuses = yml().slice(yml().indexOf('electronFuses:'));
  for (const line of [
    'runAsNode: false',
    'enableNodeOptionsEnvironmentVariable: false',
    'enableNodeCliInspectArguments: false',
    'enableEmbeddedAsarIntegrityValidation: true',
    'onlyLoadAppFromAsar: true',
    'grantFileProtocolExtraPrivileges: false',
  ]) {
    assert.match(fuses, new RegExp(`^  ${line}$`, 'm'), line);
  }
  assert.match(yml(), /^asar: true$/m);
});
