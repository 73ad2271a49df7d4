// Who makes the signature value: a key Quire holds (decrypted for the one signature, software) or a
// key that never leaves a PKCS#11 token (pkcs11.ts). cms.ts only sees this interface.

import { createPrivateKey, type KeyObject, sign } from 'node:crypto';
import { signOnToken, type TokenConfig } from './pkcs11.ts';

export interface Signer {
  /** The signer's certificate first, then its chain, DER. */
  readonly chain: Uint8Array[];
  readonly keyType: 'rsa' | 'ec';
  /** The signature over data with SHA-256 (PKCS#1 v1.5 for RSA, DER ECDSA for EC). */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

/** A key given as PKCS#8 PEM or DER, used for one signing and then dropped. */
export class SoftwareSigner implements Signer {
  readonly keyType: 'rsa' | 'ec';
  private readonly key: KeyObject;

  constructor(
    privateKey: string | Uint8Array,
    readonly chain: Uint8Array[],
  ) {
    this.key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : createPrivateKey({ key: Buffer.from(privateKey), format: 'der', type: 'pkcs8' });
    const type = this.key.asymmetricKeyType;
    if (type !== 'rsa' && type !== 'ec') throw new Error(`keys of type ${type} cannot sign here (RSA or EC)`);
    this.keyType = type;
  }

  sign(data: Uint8Array): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      sign('sha256', data, this.key, (error, signature) => (error ? reject(error) : resolve(signature)));
    });
  }
}

/** A key held by a PKCS#11 token (pkcs11.ts): the signature is made there, the key never read. */
export class TokenSigner implements Signer {
  constructor(
    private readonly config: TokenConfig,
    private readonly keyLabel: string,
    readonly keyType: 'rsa' | 'ec',
    readonly chain: Uint8Array[],
  ) {}

  async sign(data: Uint8Array): Promise<Uint8Array> {
    return (await signOnToken(this.config, this.keyLabel, data)).signature;
  }
}
