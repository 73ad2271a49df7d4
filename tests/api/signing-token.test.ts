// Signing with a key that stays in a PKCS#11 token: a SoftHSM2 token in a temporary folder, the
// test signer's key written into it with pkcs11-tool, the certificate imported with its
// token_key_label, and a render signed by the token; pdfsig and openssl cms read the result.
// Skipped, with the reason, where SoftHSM2 or opensc are missing (never in CI: setup.sh installs
// them) or where the optional pkcs11js addon is not built.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { opensslCms, pdfsig } from '../helpers/pdf-signatures.ts';
import { startTestServer } from '../helpers/start-app.ts';
import { makeTestPki } from '../helpers/test-pki.ts';

const MODULE = ['/usr/lib/softhsm/libsofthsm2.so', '/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so'].find((file) => {
  try {
    execFileSync('test', ['-f', file]);
    return true;
  } catch {
    return false;
  }
});

function missing(): string | false {
  const problems: string[] = [];
  if (!MODULE) problems.push('SoftHSM2 (Debian softhsm2)');
  try {
    execFileSync('sh', ['-c', 'command -v pkcs11-tool && command -v softhsm2-util && command -v pdfsig'], { stdio: 'ignore' });
  } catch {
    problems.push('pkcs11-tool, softhsm2-util, pdfsig (Debian opensc, softhsm2, poppler-utils)');
  }
  if (problems.length > 0 && !process.env.CI) return `needs ${problems.join(', ')}`;
  // The addon is an optional dependency built by its install script (package.json allowScripts; setup
  // installs python3, make and g++). In CI a missing build fails the test instead of skipping it.
  try {
    createRequire(import.meta.url)('pkcs11js');
  } catch (error) {
    if (process.env.CI) throw new Error(`pkcs11js is not built (npm ci runs its build; python3, make, g++ needed): ${(error as Error).message}`);
    return 'needs the pkcs11js addon built (npm ci with python3, make and g++ installed: npm run setup)';
  }
  return false;
}

test('signing with a key in a PKCS#11 token (SoftHSM2)', { skip: missing() }, async (t) => {
  const pki = await makeTestPki();
  t.after(() => pki.close());
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quire-softhsm-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // SoftHSM reads its configuration from the environment when the library is loaded, in this process.
  writeFileSync(path.join(dir, 'softhsm2.conf'), `directories.tokendir = ${dir}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  process.env.SOFTHSM2_CONF = path.join(dir, 'softhsm2.conf');
  execFileSync('softhsm2-util', ['--init-token', '--free', '--label', 'quire-test', '--pin', '1234', '--so-pin', '5678'], { stdio: 'ignore' });
  execFileSync('openssl', ['pkcs8', '-topk8', '-nocrypt', '-in', path.join(pki.dir, 'signer.key'), '-outform', 'DER', '-out', path.join(dir, 'key.der')]);
  execFileSync(
    'pkcs11-tool',
    [
      '--module',
      MODULE!,
      '--token-label',
      'quire-test',
      '--login',
      '--pin',
      '1234',
      '--write-object',
      path.join(dir, 'key.der'),
      '--type',
      'privkey',
      '--label',
      'alice',
      '--id',
      '01',
      '--usage-sign',
    ],
    { stdio: 'ignore' },
  );

  const server = await startTestServer(t, { pkcs11Module: MODULE!, pkcs11TokenLabel: 'quire-test', pkcs11Pin: '1234' });
  const imported = await server.admin('POST', '/admin/v1/certificates', {
    token_key_label: 'alice',
    certificate_pem: pki.signer.cert + pki.caPem,
    owner_key_id: server.key.id,
  });
  const certificate = (await imported.json()) as { id: string; subject: string };
  assert.equal(imported.status, 201, JSON.stringify(certificate));
  assert.match(certificate.subject, /Alice Signer/, 'the token signed a challenge that the certificate’s key verifies');

  const wrongLabel = await server.admin('POST', '/admin/v1/certificates', { token_key_label: 'nobody', certificate_pem: pki.signer.cert });
  assert.equal(wrongLabel.status, 422);

  const response = await server.render({ html: '<p>Signed by the token</p>', options: { wait_until: 'load', sign: { certificate_id: certificate.id } } });
  const pdf = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, Buffer.from(pdf).toString().slice(0, 300));
  const sig = await pdfsig(pdf, pki.nssDir);
  assert.match(sig, /Signature is Valid\./);
  assert.match(sig, /Certificate is Trusted\./);
  assert.ok((await opensslCms(pdf, path.join(pki.dir, 'ca.pem'))).verified);
});
