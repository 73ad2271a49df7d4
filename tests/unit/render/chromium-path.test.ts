// The /tmp fallback for the unpacked Chromium (issue 11): /tmp is shared by every user of the
// machine, so a binary there is trusted only if it and its folders are ours and nobody else can
// write to them; a planted binary or a symbolic link is never launched.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findChromium, isPrivateTo } from '../../../server/src/render/chromium-path.ts';
import { launchFlags } from '../../../server/src/render/launch-flags.ts';

const uid = process.getuid!();

async function cache(t: { after: (fn: () => Promise<void>) => void }) {
  const root = await mkdtemp(path.join(os.tmpdir(), 'quire-chromium-test-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const top = path.join(root, 'quire-chromium');
  const binary = path.join(top, '147.0.0', 'chromium');
  await mkdir(path.dirname(binary), { recursive: true, mode: 0o700 });
  await writeFile(binary, '#!/bin/sh\n', { mode: 0o755 });
  return { top, binary };
}

test('a binary in folders of our own, writable only by us, is trusted', async (t) => {
  const { top, binary } = await cache(t);
  assert.equal(await isPrivateTo(uid, binary, top), true);
  assert.equal(await isPrivateTo(uid, path.join(path.dirname(binary), 'not-yet-unpacked'), top), true, 'a missing binary in a private folder may be unpacked');
});

test('a folder others can write to, a binary others can write to, or another owner is not trusted', async (t) => {
  const { top, binary } = await cache(t);
  await chmod(top, 0o777);
  assert.equal(await isPrivateTo(uid, binary, top), false, 'world-writable folder');
  await chmod(top, 0o700);
  await chmod(binary, 0o775);
  assert.equal(await isPrivateTo(uid, binary, top), false, 'group-writable binary');
  await chmod(binary, 0o755);
  assert.equal(await isPrivateTo(uid + 1, binary, top), false, 'owned by another user');
});

test('a symbolic link planted in place of the binary or a folder is not trusted', async (t) => {
  const { top, binary } = await cache(t);
  await rm(binary);
  await symlink('/bin/sh', binary);
  assert.equal(await isPrivateTo(uid, binary, top), false);
});

test('CHROME_PATH naming our unpack of the shipped headless shell is launched as a headless shell', async (t) => {
  // It decides the --headless switch and whether frames can be drawn on request (virtual clock).
  const { binary } = await cache(t);
  assert.equal((await findChromium(binary)).isHeadlessShell, true);
  const other = path.join(path.dirname(path.dirname(path.dirname(binary))), 'chromium');
  await writeFile(other, '#!/bin/sh\n', { mode: 0o755 });
  assert.equal((await findChromium(other)).isHeadlessShell, false);
});

test('CHROME_PATH to a headless shell gets --headless; to a full Chromium (Debian chromium, Chrome), --headless=new without the begin-frame switch', async (t) => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'quire-chromium-names-'));
  t.after(() => rm(folder, { recursive: true, force: true }));
  const kinds: [name: string, isHeadlessShell: boolean][] = [
    ['chromium-headless-shell', true],
    ['chrome-headless-shell', true],
    ['headless_shell', true],
    ['chromium', false],
    ['chrome', false],
    ['google-chrome', false],
  ];
  for (const [name, isHeadlessShell] of kinds) {
    const binary = path.join(folder, name);
    await writeFile(binary, '#!/bin/sh\n', { mode: 0o755 });
    const found = await findChromium(binary);
    assert.equal(found.isHeadlessShell, isHeadlessShell, name);
    const flags = launchFlags({ isHeadlessShell: found.isHeadlessShell, noSandbox: false, userDataDir: folder });
    assert.equal(flags[0], isHeadlessShell ? '--headless' : '--headless=new', name);
    assert.equal(flags.includes('--run-all-compositor-stages-before-draw'), isHeadlessShell, name);
  }
});
