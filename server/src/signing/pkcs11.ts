// A Signer whose key never leaves a PKCS#11 token (an HSM, a smart card, a cloud KMS's PKCS#11
// library; SoftHSM2 in the tests): the token computes SHA-256 and the signature (CKM_SHA256_RSA_PKCS
// or CKM_ECDSA_SHA256) over the signed attributes. The binding is pkcs11js, a native addon loaded
// only when PKCS11_MODULE is set, so a server without it (or without its build) runs as before.

import { createRequire } from 'node:module';

export interface TokenConfig {
  /** Path of the PKCS#11 library (libsofthsm2.so, a vendor's .so). */
  module: string;
  /** The token's label (CK_TOKEN_INFO.label). */
  tokenLabel: string;
  /** The user PIN (from the environment, PKCS11_PIN). */
  pin: string;
}

/** The token settings (PKCS11_MODULE, PKCS11_TOKEN_LABEL, PKCS11_PIN), or undefined when no module is set. */
export function tokenConfig(settings: { pkcs11Module: string; pkcs11TokenLabel: string; pkcs11Pin: string }): TokenConfig | undefined {
  return settings.pkcs11Module ? { module: settings.pkcs11Module, tokenLabel: settings.pkcs11TokenLabel, pin: settings.pkcs11Pin } : undefined;
}

export class TokenError extends Error {
  override readonly name = 'TokenError';
}

/** The part of pkcs11js this module uses (typed here: the addon is optional). */
interface Pkcs11Binding {
  PKCS11: new () => Pkcs11;
  CKF_SERIAL_SESSION: number;
  CKU_USER: number;
  CKA_CLASS: number;
  CKA_LABEL: number;
  CKA_KEY_TYPE: number;
  CKO_PRIVATE_KEY: number;
  CKK_EC: number;
  CKM_SHA256_RSA_PKCS: number;
  CKM_ECDSA_SHA256: number;
}
interface Pkcs11 {
  load(path: string): void;
  C_Initialize(): void;
  C_GetSlotList(present: boolean): Buffer[];
  C_GetTokenInfo(slot: Buffer): { label: string };
  C_OpenSession(slot: Buffer, flags: number): Buffer;
  C_Login(session: Buffer, user: number, pin: string): void;
  C_Logout(session: Buffer): void;
  C_CloseSession(session: Buffer): void;
  C_FindObjectsInit(session: Buffer, template: { type: number; value?: number | string }[]): void;
  C_FindObjects(session: Buffer, count: number): Buffer[];
  C_FindObjectsFinal(session: Buffer): void;
  C_GetAttributeValue(session: Buffer, object: Buffer, template: { type: number }[]): { value: Buffer }[];
  C_SignInit(session: Buffer, mechanism: { mechanism: number }, key: Buffer): void;
  C_Sign(session: Buffer, data: Buffer, out: Buffer, cb: (error: Error | null, signature: Buffer) => void): void;
}

/** One loaded and initialised library per module path for the process (C_Initialize may run once). */
const loaded = new Map<string, { binding: Pkcs11Binding; pkcs11: Pkcs11 }>();

function library(module: string): { binding: Pkcs11Binding; pkcs11: Pkcs11 } {
  let entry = loaded.get(module);
  if (entry) return entry;
  let binding: Pkcs11Binding;
  try {
    binding = createRequire(import.meta.url)('pkcs11js') as Pkcs11Binding;
  } catch (error) {
    throw new TokenError(
      `PKCS11_MODULE is set but the pkcs11js addon does not load (npm install pkcs11js with its build script allowed; needs python3, make, g++): ${(error as Error).message}`,
    );
  }
  const pkcs11 = new binding.PKCS11();
  try {
    pkcs11.load(module);
    pkcs11.C_Initialize();
  } catch (error) {
    throw new TokenError(`the PKCS#11 library ${module} does not load: ${(error as Error).message}`);
  }
  entry = { binding, pkcs11 };
  loaded.set(module, entry);
  return entry;
}

/** Signs data with the private key labelled keyLabel on the configured token; answers DER for EC. */
export async function signOnToken(config: TokenConfig, keyLabel: string, data: Uint8Array): Promise<{ signature: Buffer; keyType: 'rsa' | 'ec' }> {
  const { binding, pkcs11 } = library(config.module);
  const slot = pkcs11.C_GetSlotList(true).find((candidate) => pkcs11.C_GetTokenInfo(candidate).label.trim() === config.tokenLabel);
  if (!slot) throw new TokenError(`no token labelled "${config.tokenLabel}" in ${config.module}`);
  const session = pkcs11.C_OpenSession(slot, binding.CKF_SERIAL_SESSION);
  try {
    pkcs11.C_Login(session, binding.CKU_USER, config.pin);
    try {
      pkcs11.C_FindObjectsInit(session, [
        { type: binding.CKA_CLASS, value: binding.CKO_PRIVATE_KEY },
        { type: binding.CKA_LABEL, value: keyLabel },
      ]);
      const [key] = pkcs11.C_FindObjects(session, 1);
      pkcs11.C_FindObjectsFinal(session);
      if (!key) throw new TokenError(`no private key labelled "${keyLabel}" on token "${config.tokenLabel}"`);
      const keyType = pkcs11.C_GetAttributeValue(session, key, [{ type: binding.CKA_KEY_TYPE }])[0]!.value.readUIntLE(0, 4) === binding.CKK_EC ? 'ec' : 'rsa';
      pkcs11.C_SignInit(session, { mechanism: keyType === 'ec' ? binding.CKM_ECDSA_SHA256 : binding.CKM_SHA256_RSA_PKCS }, key);
      const raw = await new Promise<Buffer>((resolve, reject) =>
        pkcs11.C_Sign(session, Buffer.from(data), Buffer.alloc(1024), (error, signature) => (error ? reject(error) : resolve(signature))),
      );
      return { signature: keyType === 'ec' ? derEcdsa(raw) : raw, keyType };
    } finally {
      pkcs11.C_Logout(session);
    }
  } finally {
    pkcs11.C_CloseSession(session);
  }
}

/** PKCS#11 answers ECDSA as r || s; CMS wants SEQUENCE { INTEGER r, INTEGER s }. */
function derEcdsa(raw: Buffer): Buffer {
  const integer = (half: Buffer) => {
    let start = 0;
    while (start < half.length - 1 && half[start] === 0) start++;
    const body = half[start]! & 0x80 ? Buffer.concat([Buffer.from([0]), half.subarray(start)]) : half.subarray(start);
    return Buffer.concat([Buffer.from([0x02, body.length]), body]);
  };
  const half = raw.length / 2;
  const content = Buffer.concat([integer(raw.subarray(0, half)), integer(raw.subarray(half))]);
  return Buffer.concat([Buffer.from([0x30, content.length]), content]);
}
