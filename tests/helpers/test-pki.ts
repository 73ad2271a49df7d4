// A test PKI made with openssl in a temporary folder: a root CA, a signer, an expired signer, a
// signer from an untrusted CA, a timestamping authority, and that TSA answering RFC 3161 requests
// on loopback (`openssl ts -reply` behind a tiny HTTP server). Also the NSS database pdfsig reads
// trust from. Nothing here is Quire's code: these are the independent tools the signing tests
// check against.

import { execFile as execFileCallback } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFile = promisify(execFileCallback);

export interface TestPki {
  dir: string;
  caPem: string;
  /** PEM key (PKCS#8) and certificate of a valid signer issued by the CA. */
  signer: { key: string; cert: string; p12: Buffer; p12Password: string };
  expired: { key: string; cert: string };
  /** Issued by a CA that is not in any trust store. */
  stranger: { key: string; cert: string; caPem: string };
  /** An NSS database trusting the CA, for `pdfsig -nssdir sql:<nssDir>`. */
  nssDir: string;
  tsaConfig: string;
  close(): Promise<void>;
}

const run = (file: string, args: string[], cwd: string) => execFile(file, args, { cwd, timeout: 30_000 });

async function issue(dir: string, name: string, subject: string, ca: string, ext: string, days: string[]): Promise<{ key: string; cert: string }> {
  await run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject], dir);
  await writeFile(path.join(dir, `${name}.ext`), ext);
  await run(
    'openssl',
    [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${ca}.pem`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-extfile',
      `${name}.ext`,
      ...days,
    ],
    dir,
  );
  return { key: await readFile(path.join(dir, `${name}.key`), 'utf8'), cert: await readFile(path.join(dir, `${name}.pem`), 'utf8') };
}

async function makeCa(dir: string, name: string, subject: string): Promise<string> {
  await run(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-days',
      '3650',
      '-subj',
      subject,
      '-addext',
      'basicConstraints=critical,CA:true',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  return readFile(path.join(dir, `${name}.pem`), 'utf8');
}

const SIGNER_EXT = 'basicConstraints=CA:false\nkeyUsage=critical,digitalSignature,nonRepudiation\nextendedKeyUsage=emailProtection\n';

export async function makeTestPki(): Promise<TestPki> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-pki-'));
  const caPem = await makeCa(dir, 'ca', '/CN=Quire Test Root CA/O=Quire Tests');
  const signer = await issue(dir, 'signer', '/CN=Alice Signer/O=Quire Tests', 'ca', SIGNER_EXT, ['-days', '365']);
  const p12Password = 'p12-secret';
  await run(
    'openssl',
    ['pkcs12', '-export', '-inkey', 'signer.key', '-in', 'signer.pem', '-certfile', 'ca.pem', '-out', 'signer.p12', '-passout', `pass:${p12Password}`],
    dir,
  );
  // Valid from 2000 to 2001: openssl x509 -req has no start date, so the CA signs with `openssl ca`-free -not_before where supported.
  const expired = await issueExpired(dir);
  await makeCa(dir, 'stranger-ca', '/CN=Somebody Else CA');
  const stranger = await issue(dir, 'stranger', '/CN=Mallory/O=Elsewhere', 'stranger-ca', SIGNER_EXT, ['-days', '365']);
  await issue(
    dir,
    'tsa',
    '/CN=Quire Test TSA/O=Quire Tests',
    'ca',
    'basicConstraints=CA:false\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n',
    ['-days', '365'],
  );
  const tsaConfig = path.join(dir, 'tsa.cnf');
  await writeFile(
    tsaConfig,
    `[ tsa ]\ndefault_tsa = tsa_config\n[ tsa_config ]\ndir = ${dir}\nserial = ${dir}/tsaserial\ncrypto_device = builtin\nsigner_cert = ${dir}/tsa.pem\ncerts = ${dir}/ca.pem\nsigner_key = ${dir}/tsa.key\nsigner_digest = sha256\ndefault_policy = 1.2.3.4.1\ndigests = sha256\naccuracy = secs:1\nordering = yes\ntsa_name = yes\ness_cert_id_chain = no\ness_cert_id_alg = sha256\n`,
  );
  await writeFile(path.join(dir, 'tsaserial'), '01\n');
  const nssDir = path.join(dir, 'nss');
  await run('mkdir', ['-p', nssDir], dir);
  await run('certutil', ['-N', '-d', `sql:${nssDir}`, '--empty-password'], dir);
  await run('certutil', ['-A', '-d', `sql:${nssDir}`, '-n', 'quire-test-ca', '-t', 'CT,C,C', '-i', path.join(dir, 'ca.pem')], dir);
  return {
    dir,
    caPem,
    signer: { ...signer, p12: await readFile(path.join(dir, 'signer.p12')), p12Password },
    expired,
    stranger: { ...stranger, caPem: await readFile(path.join(dir, 'stranger-ca.pem'), 'utf8') },
    nssDir,
    tsaConfig,
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A certificate whose validity ended long ago, signed by the CA (`openssl x509 -not_before/-not_after` need 3.4; `openssl ca` works on 3.0). */
async function issueExpired(dir: string): Promise<{ key: string; cert: string }> {
  await run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'expired.key', '-out', 'expired.csr', '-subj', '/CN=Old Signer/O=Quire Tests'], dir);
  await writeFile(path.join(dir, 'index.txt'), '');
  await writeFile(path.join(dir, 'ca-serial'), '1000\n');
  await writeFile(
    path.join(dir, 'ca.cnf'),
    `[ ca ]\ndefault_ca = test\n[ test ]\ndatabase = ${dir}/index.txt\nserial = ${dir}/ca-serial\nnew_certs_dir = ${dir}\ndefault_md = sha256\npolicy = any\ncopy_extensions = none\nx509_extensions = ext\n[ any ]\ncommonName = supplied\norganizationName = optional\n[ ext ]\n${SIGNER_EXT}`,
  );
  await run(
    'openssl',
    [
      'ca',
      '-batch',
      '-config',
      'ca.cnf',
      '-cert',
      'ca.pem',
      '-keyfile',
      'ca.key',
      '-in',
      'expired.csr',
      '-out',
      'expired.pem',
      '-startdate',
      '20000101000000Z',
      '-enddate',
      '20010101000000Z',
      '-notext',
    ],
    dir,
  );
  return { key: await readFile(path.join(dir, 'expired.key'), 'utf8'), cert: await readFile(path.join(dir, 'expired.pem'), 'utf8') };
}

export interface TestTsa {
  url: string;
  /** Requests answered so far. */
  answered: number;
  /** While true, requests are read and never answered (a TSA that hangs). */
  hang: boolean;
  close(): Promise<void>;
}

/** An RFC 3161 TSA on loopback: each POST body goes to `openssl ts -reply`. */
export async function startTestTsa(pki: TestPki): Promise<TestTsa> {
  let count = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      if (tsa.hang) return;
      const name = `query-${process.pid}-${count}`;
      await writeFile(path.join(pki.dir, `${name}.tsq`), Buffer.concat(chunks));
      try {
        await run('openssl', ['ts', '-reply', '-config', pki.tsaConfig, '-queryfile', `${name}.tsq`, '-out', `${name}.tsr`], pki.dir);
        const reply = await readFile(path.join(pki.dir, `${name}.tsr`));
        count++;
        tsa.answered = count;
        response.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(reply);
      } catch (error) {
        response.writeHead(500).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const tsa: TestTsa = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`,
    answered: 0,
    hang: false,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return tsa;
}
