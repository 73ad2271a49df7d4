// Private keys at rest: AES-256-GCM under the operator's 32-byte master key, the certificate's id
// as associated data (a sealed key copied onto another record does not open). The sealed form
// names the master key by the first bytes of its hash, so rotation (services/signing/certificates.ts)
// can tell which records it has done and a wrong key is a clear error, not garbage.

import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export class SealError extends Error {
  override readonly name = 'SealError';
}

export const masterKeyId = (master: Uint8Array): string => createHash('sha256').update(master).digest('hex').slice(0, 16);

/** "v1.<master key id>.<base64 of nonce, tag, ciphertext>" */
export function seal(master: Uint8Array, plain: Uint8Array, context: string): string {
  if (master.byteLength !== 32) throw new SealError('the master key must be 32 bytes');
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', master, nonce);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return `v1.${masterKeyId(master)}.${Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64')}`;
}

export function sealedWith(sealed: string): string | undefined {
  return /^v1\.([0-9a-f]{16})\./.exec(sealed)?.[1];
}

export function unseal(master: Uint8Array, sealed: string, context: string): Buffer {
  const [version, keyId, data] = sealed.split('.');
  if (version !== 'v1' || !data) throw new SealError('not a sealed key');
  if (keyId !== masterKeyId(master)) throw new SealError(`sealed under master key ${keyId}, not the one configured (${masterKeyId(master)})`);
  const bytes = Buffer.from(data, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', master, bytes.subarray(0, 12));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(bytes.subarray(12, 28));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
  } catch {
    throw new SealError('the sealed key does not open: altered, or sealed for another record');
  }
}
