// The /tmp fallback for the unpacked Chromium (issue 11): /tmp is shared by every user of the
// machine, so a binary there is trusted only if it and its folders are ours and nobody else can
// write to them; a planted binary or a symbolic link is never launched.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isPrivateTo } from '../../server/src/render/chromium-path.ts';

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
