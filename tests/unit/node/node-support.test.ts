// The supported Node range (server/src/node-support.mjs) and the launcher every npm script goes
// through (scripts/supported-node.sh): an old Node first on PATH gets Node 24 from npm, a supported
// one is used as it is, and the server's entries refuse an old Node with one line (issue 40).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { enginesRange, satisfiesEngines, unsupportedNodeLine } from '../../../server/src/node-support.mjs';
import { OLD_SYSTEM_NODE, withPathFirst } from '../../helpers/old-node.ts';
import { REPO_ROOT } from '../../helpers/server-process.ts';

const run = promisify(execFile);
const LAUNCHER = path.join(REPO_ROOT, 'scripts', 'supported-node.sh');
const RANGE = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

test('the supported range is package.json engines, caret by caret', () => {
  assert.equal(enginesRange(), RANGE);
  const range = '^22.12.0 || ^24.0.0 || ^26.0.0';
  for (const version of ['22.12.0', '22.20.1', '24.0.0', '24.21.0', '26.10.0', 'v24.1.0']) assert.equal(satisfiesEngines(version, range), true, version);
  for (const version of ['20.20.2', '22.11.9', '23.5.0', '25.0.0', '27.0.0', '18.0.0']) assert.equal(satisfiesEngines(version, range), false, version);
});

test('an unsupported Node gets one line that names the version and what to run', () => {
  const line = unsupportedNodeLine('npm start', '20.20.2', RANGE);
  assert.ok(line);
  assert.equal(line.split('\n').length, 1);
  assert.match(line, /Node 20\.20\.2 is not supported/);
  assert.match(line, /`npm start`/);
  assert.equal(unsupportedNodeLine('npm start', '24.21.0', RANGE), undefined);
});

test('the launcher uses a supported Node first on PATH as it is', async () => {
  const { stdout, stderr } = await run(LAUNCHER, ['node', '-p', 'process.execPath'], { env: withPathFirst(path.dirname(process.execPath)) });
  assert.equal(stdout.trim(), process.execPath);
  assert.equal(stderr, '');
});

test('the launcher runs the command on Node 24 from npm when the Node first on PATH is too old', async (t) => {
  // A stand-in for an old Node: every call fails, as node-support.mjs's check does on Node 20.
  const folder = mkdtempSync(path.join(os.tmpdir(), 'quire-old-node-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  writeFileSync(path.join(folder, 'node'), '#!/bin/sh\necho v20.0.0\nexit 1\n');
  chmodSync(path.join(folder, 'node'), 0o755);
  const { stdout, stderr } = await run(LAUNCHER, ['node', '-p', 'process.versions.node'], { env: withPathFirst(folder) });
  assert.match(stdout.trim(), /^24\./);
  assert.match(stderr, /outside package\.json's engines: running on Node 24 from npm/);
});

test(`the machine's own old Node runs the npm scripts on Node 24${OLD_SYSTEM_NODE ? '' : ' (skipped: needs a Node older than 22 at /usr/bin/node)'}`, {
  skip: !OLD_SYSTEM_NODE,
}, async () => {
  const { stdout } = await run(LAUNCHER, ['node', '-p', 'process.versions.node'], { env: withPathFirst('/usr/bin') });
  assert.match(stdout.trim(), /^24\./);
});

test(`the server and the CLI refuse an old Node with one line${OLD_SYSTEM_NODE ? '' : ' (skipped: needs a Node older than 22 at /usr/bin/node)'}`, {
  skip: !OLD_SYSTEM_NODE,
}, async () => {
  for (const [entry, command] of [
    ['server/src/main.ts', 'npm start'],
    ['server/src/cli.ts', 'npm run cli'],
  ] as const) {
    const refused = await run('/usr/bin/node', ['--import', 'tsx', entry, 'keys', 'list'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: os.tmpdir() },
    }).then(
      () => assert.fail(`${entry} started on an old Node`),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
    assert.match(refused.stderr, new RegExp(`^quire: Node ${OLD_SYSTEM_NODE!.replaceAll('.', '\\.')} is not supported .*\`${command}\``));
  }
});
