// The master key that seals signing keys (signing/key-seal.ts): SIGNING_KEY (base64, from a secret
// manager) or the file SIGNING_KEY_FILE, default DATA_DIR/signing-key, made with 32 random bytes
// and mode 0600 on first use. Losing it loses every imported key; docs/operations.md says how to
// back it up and rotate it.

import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileDurably } from './durable-file.ts';

export interface MasterKeySource {
  dataDir: string;
  signingKeyFile: string;
  signingKey: string;
}

export class MasterKeyError extends Error {
  override readonly name = 'MasterKeyError';
}

export function decodeMasterKey(text: string, where: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.byteLength !== 32) throw new MasterKeyError(`${where} must hold 32 bytes in base64 (openssl rand -base64 32), not ${key.byteLength}`);
  return key;
}

export const masterKeyFile = (source: MasterKeySource): string => source.signingKeyFile || path.join(source.dataDir, 'signing-key');

/** The master key; the file is made when neither is set and it does not exist. */
export async function loadMasterKey(source: MasterKeySource): Promise<Buffer> {
  if (source.signingKey) return decodeMasterKey(source.signingKey, 'SIGNING_KEY');
  const file = masterKeyFile(source);
  try {
    const mode = (await stat(file)).mode & 0o077;
    if (mode !== 0) throw new MasterKeyError(`${file} can be read by others (mode ${(mode | 0o600).toString(8)}): chmod 600 it`);
    return decodeMasterKey(await readFile(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  await writeFileDurably(file, `${key.toString('base64')}\n`);
  return key;
}
