// Reads what an operator or a key imports: a PKCS#12 with its password (through `openssl pkcs12`,
// the password handed in the child's environment, never on its command line) or a PEM key with
// its chain. Answers the key as PKCS#8 DER and the chain ordered from the signer up, with the
// facts the API lists. Any problem is a CertificateFileError with a sentence for the caller.

import { execFile } from 'node:child_process';
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export class CertificateFileError extends Error {
  override readonly name = 'CertificateFileError';
}

/** What the API lists of a certificate: the signer certificate's own facts. */
export interface CertificateFacts {
  keyType: 'rsa' | 'ec';
  subject: string;
  issuer: string;
  /** Hex, as openssl prints it. */
  serial: string;
  notBefore: string;
  notAfter: string;
  /** sha256 of the signer certificate's DER, hex. */
  fingerprint: string;
}

export interface ReadCertificate extends CertificateFacts {
  /** PKCS#8 DER of the private key. */
  key: Buffer;
  /** Signer first, DER. */
  chain: Buffer[];
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const PEM_KEY = /-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]+?-----END \1PRIVATE KEY-----/;

export function readPem(keyPem: string, chainPem: string, password?: string): ReadCertificate {
  const keyText = PEM_KEY.exec(keyPem)?.[0];
  if (!keyText) throw new CertificateFileError('key_pem holds no PEM private key');
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: keyText, passphrase: password });
  } catch (error) {
    throw new CertificateFileError(
      `the private key does not read${password === undefined ? ' (encrypted? give its password)' : ''}: ${(error as Error).message}`,
    );
  }
  const type = key.asymmetricKeyType;
  if (type !== 'rsa' && type !== 'ec') throw new CertificateFileError(`keys of type ${type} cannot sign here: RSA or EC`);
  const facts = describeChain(readChain(chainPem), (cert) => cert.checkPrivateKey(key), type);
  return { ...facts, key: key.export({ type: 'pkcs8', format: 'der' }) };
}

/** The certificates of a PEM text (at least one). */
export function readChain(chainPem: string): X509Certificate[] {
  const certs = (chainPem.match(PEM_CERT) ?? []).map((pem) => {
    try {
      return new X509Certificate(pem);
    } catch (error) {
      throw new CertificateFileError(`a certificate does not read: ${(error as Error).message}`);
    }
  });
  if (certs.length === 0) throw new CertificateFileError('certificate_pem holds no PEM certificate');
  return certs;
}

export async function readPkcs12(p12: Uint8Array, password: string, timeoutMs = 10_000): Promise<ReadCertificate> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-p12-'));
  try {
    const file = path.join(dir, 'in.p12');
    await writeFile(file, p12, { mode: 0o600 });
    const pem = await openssl(['pkcs12', '-in', file, '-nodes', '-passin', 'env:QUIRE_P12_PASSWORD'], password, timeoutMs).catch(() =>
      // Files made by older tools use RC2/3DES, which OpenSSL 3 keeps in its legacy provider.
      openssl(['pkcs12', '-legacy', '-in', file, '-nodes', '-passin', 'env:QUIRE_P12_PASSWORD'], password, timeoutMs),
    );
    return readPem(pem, pem);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function openssl(args: string[], password: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'openssl',
      args,
      { timeout: timeoutMs, maxBuffer: 4 << 20, env: { PATH: process.env.PATH, QUIRE_P12_PASSWORD: password } },
      (error, stdout, stderr) => {
        if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT')
          reject(new CertificateFileError('openssl is not installed on the server, so PKCS#12 files cannot be read; import PEM'));
        else if (error)
          reject(new CertificateFileError(/mac verify|invalid password/i.test(stderr) ? 'the PKCS#12 password is wrong' : 'the PKCS#12 file does not read'));
        else resolve(stdout);
      },
    );
  });
}

/** The certificate that matches the key, then each issuer found among the rest. */
export function describeChain(certs: X509Certificate[], matchesKey: (cert: X509Certificate) => boolean, keyType: 'rsa' | 'ec'): Omit<ReadCertificate, 'key'> {
  const leaf = certs.find(matchesKey);
  if (!leaf) throw new CertificateFileError('no certificate matches the private key');
  const chain = [leaf];
  const rest = certs.filter((cert) => cert !== leaf);
  for (let current = leaf; ; ) {
    const issuer = rest.find((cert) => !chain.includes(cert) && current.checkIssued(cert) && current.verify(cert.publicKey));
    if (!issuer || issuer === current) break;
    chain.push(issuer);
    current = issuer;
  }
  return {
    keyType,
    chain: chain.map((cert) => cert.raw),
    subject: oneLine(leaf.subject),
    issuer: oneLine(leaf.issuer),
    serial: leaf.serialNumber,
    notBefore: new Date(leaf.validFrom).toISOString(),
    notAfter: new Date(leaf.validTo).toISOString(),
    fingerprint: leaf.fingerprint256.replace(/:/g, '').toLowerCase(),
  };
}

const oneLine = (name: string): string => name.split('\n').filter(Boolean).join(', ');
