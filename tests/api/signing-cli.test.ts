// The certificates CLI on a DATA_DIR no server holds: import a PKCS#12 (password from the
// environment, never argv), list it, rotate the master key (every sealed key re-sealed, the key
// file replaced, mode 0600), and the re-sealed key still signs while the old master key no
// longer opens it.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { CertificatesService } from '../../server/src/services/signing/certificates.ts';
import { FileCertificateStore } from '../../server/src/stores/certificates.ts';
import { REPO_ROOT } from '../helpers/server-process.ts';
import { makeTestPki } from '../helpers/test-pki.ts';

const run = promisify(execFile);

async function cli(dataDir: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'server/src/cli.ts', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: dataDir, ...env },
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

test('certificates import, list and rotate-master-key through the CLI', async (t) => {
  const pki = await makeTestPki();
  t.after(() => pki.close());
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-cert-cli-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));

  const imported = await cli(dataDir, ['certificates', 'import', '--p12', path.join(pki.dir, 'signer.p12'), '--password-env', 'P12_PASS', '--name', 'Alice'], {
    P12_PASS: pki.signer.p12Password,
  });
  assert.equal(imported.code, 0, imported.stderr);
  const id = imported.stdout.trim();
  assert.match(id, /^crt_[A-Za-z0-9]+$/);
  assert.match(imported.stderr, /Alice Signer/);
  const keyFile = path.join(dataDir, 'signing-key');
  assert.equal((await stat(keyFile)).mode & 0o777, 0o600, 'the master key file is made 0600 on first use');
  const stored = await readFile(path.join(dataDir, 'certificates.json'), 'utf8');
  assert.doesNotMatch(stored, /PRIVATE KEY/);

  const listed = await cli(dataDir, ['certificates', 'list']);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, new RegExp(`^${id}\\toperator\\t`));

  const wrong = await cli(dataDir, ['certificates', 'import', '--p12', path.join(pki.dir, 'signer.p12'), '--password-env', 'P12_PASS'], { P12_PASS: 'nope' });
  assert.notEqual(wrong.code, 0);
  assert.match(wrong.stderr, /password is wrong/);

  const oldKey = await readFile(keyFile, 'utf8');
  const rotated = await cli(dataDir, ['certificates', 'rotate-master-key']);
  assert.equal(rotated.code, 0, rotated.stderr);
  assert.match(rotated.stderr, /re-sealed 1 key/);
  const newKey = await readFile(keyFile, 'utf8');
  assert.notEqual(newKey, oldKey);
  assert.equal((await stat(keyFile)).mode & 0o777, 0o600);

  const store = await FileCertificateStore.open(dataDir);
  const withNew = new CertificatesService(store, async () => Buffer.from(newKey.trim(), 'base64'));
  const signer = await withNew.signerFor((await store.get(id))!);
  assert.ok((await signer.sign(Buffer.from('data'))).byteLength > 0);
  const withOld = new CertificatesService(store, async () => Buffer.from(oldKey.trim(), 'base64'));
  await assert.rejects(withOld.signerFor((await store.get(id))!), /sealed under master key/);
  const again = await cli(dataDir, ['certificates', 'rotate-master-key']);
  assert.match(again.stderr, /re-sealed 1 key/, 'a second rotation re-seals again under a newer key');
});
