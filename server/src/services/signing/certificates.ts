// The story of signing certificates (docs/api.md#signing): import (PKCS#12 or PEM) for a key or
// for the operator, list, grant operator certificates to keys, delete, rotate the master key, and
// hand the sign step a Signer for a certificate the key may use. The private key is unsealed only
// here, for one signature, and never leaves this module in any answer, log or receipt.

import { createPrivateKey, randomBytes, verify } from 'node:crypto';
import { ApiError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { CertificateFileError, describeChain, readChain, readPem, readPkcs12, type ReadCertificate } from '../../signing/certificate-files.ts';
import { signOnToken, TokenError, type TokenConfig } from '../../signing/pkcs11.ts';
import { masterKeyId, seal, sealedWith, unseal } from '../../signing/key-seal.ts';
import { SoftwareSigner, TokenSigner, type Signer } from '../../signing/signer.ts';
import type { CertificateRecord, CertificateStore } from '../../stores/certificates.ts';
import type { CertificateJson } from '../../shapes/certificate-json.ts';

/** A certificate expiring within this many days is flagged on /health, in lists and in receipts. */
export const EXPIRY_WARNING_DAYS = 30;
const DAY_MS = 86_400_000;
// Warnings are read by people (the admin window, receipts, /health): "17 Dec 2026, 14:05 UTC", not
// an ISO timestamp. The month as a word reads the same in every country; UTC says whose clock.
const READABLE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** A certificate's validity bound as people read it: "17 Dec 2026, 14:05 UTC". */
export function readableTime(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : `${READABLE.format(at)} UTC`;
}

export type ImportSource =
  | { pkcs12: Uint8Array; password: string }
  | { keyPem: string; certificatePem: string; password?: string }
  /** A key that stays in the PKCS#11 token (PKCS11_MODULE), with its certificate and chain. */
  | { tokenKeyLabel: string; certificatePem: string };

/** What the API shows of a certificate: public facts only (the shape lives in shapes/, shared with the admin UI). */
export type CertificateView = CertificateJson;

export class CertificatesService {
  constructor(
    private readonly store: CertificateStore,
    private readonly masterKey: () => Promise<Buffer>,
    private readonly now: () => Date = () => new Date(),
    private readonly token?: TokenConfig,
  ) {}

  /** Reads, checks and seals an imported certificate; owner null is the operator's. */
  async import(source: ImportSource, owner: string | null, name?: string): Promise<CertificateView> {
    let read: ReadCertificate;
    try {
      if ('tokenKeyLabel' in source) read = { ...(await this.readToken(source.tokenKeyLabel, source.certificatePem)), key: Buffer.alloc(0) };
      else read = 'pkcs12' in source ? await readPkcs12(source.pkcs12, source.password) : readPem(source.keyPem, source.certificatePem, source.password);
    } catch (error) {
      if (error instanceof CertificateFileError || error instanceof TokenError)
        throw new ApiError('certificate_invalid', `The certificate could not be imported: ${error.message}.`);
      throw error;
    }
    const tokenKeyLabel = 'tokenKeyLabel' in source ? source.tokenKeyLabel : undefined;
    const id = newId('crt');
    const record: CertificateRecord = {
      id,
      name: name ?? read.subject,
      ownerKeyId: owner,
      grants: [],
      subject: read.subject,
      issuer: read.issuer,
      serial: read.serial,
      notBefore: read.notBefore,
      notAfter: read.notAfter,
      fingerprint: read.fingerprint,
      chain: read.chain.map((der) => der.toString('base64')),
      keyType: read.keyType,
      sealedKey: tokenKeyLabel ? '' : seal(await this.masterKey(), read.key, id),
      ...(tokenKeyLabel ? { tokenKeyLabel } : {}),
      createdAt: this.now().toISOString(),
    };
    read.key.fill(0);
    await this.store.insert(record);
    return this.view(record);
  }

  /** Every certificate (admin). */
  async listAll(): Promise<CertificateView[]> {
    return (await this.store.list()).map((record) => this.view(record));
  }

  /** The certificates a key may sign with: its own and the operator's granted to it. */
  async listFor(keyId: string): Promise<CertificateView[]> {
    return (await this.store.list()).filter((record) => usableBy(record, keyId)).map((record) => this.view(record));
  }

  /** One certificate; another key's (not granted) is a 404 as if it did not exist. */
  async get(id: string, keyId?: string): Promise<CertificateView> {
    return this.view(await this.record(id, keyId));
  }

  async delete(id: string, keyId?: string): Promise<void> {
    const record = await this.record(id, keyId);
    if (keyId !== undefined && record.ownerKeyId !== keyId) throw notFound(id);
    await this.store.delete(id);
  }

  /** Sets which keys may sign with an operator certificate. */
  async grant(id: string, keyIds: string[]): Promise<CertificateView> {
    const record = await this.record(id);
    if (record.ownerKeyId !== null)
      throw new ApiError('invalid_request', `grants: certificate ${id} belongs to key ${record.ownerKeyId}; only operator certificates are granted.`);
    const updated = await this.store.update(id, { grants: [...new Set(keyIds)] });
    return this.view(updated ?? record);
  }

  /**
   * The facts the sign step checks before anything is charged: the certificate exists for this
   * key and is valid now. Answers the record (no key).
   */
  async usable(id: string, keyId: string): Promise<CertificateRecord> {
    const record = await this.record(id, keyId);
    const now = this.now().getTime();
    if (now < Date.parse(record.notBefore))
      throw new ApiError('certificate_not_valid', `options.sign.certificate_id: certificate ${id} is not valid before ${readableTime(record.notBefore)}.`);
    if (now > Date.parse(record.notAfter))
      throw new ApiError('certificate_not_valid', `options.sign.certificate_id: certificate ${id} expired on ${readableTime(record.notAfter)}.`);
    return record;
  }

  /** A signer holding the unsealed key for one signature. */
  async signerFor(record: CertificateRecord): Promise<Signer> {
    const chain = record.chain.map((der) => Buffer.from(der, 'base64'));
    if (record.tokenKeyLabel) {
      if (!this.token)
        throw new ApiError(
          'invalid_request',
          `options.sign.certificate_id: certificate ${record.id}'s key is in a PKCS#11 token and this server has no PKCS11_MODULE.`,
        );
      return new TokenSigner(this.token, record.tokenKeyLabel, record.keyType, chain);
    }
    const key = unseal(await this.masterKey(), record.sealedKey, record.id);
    try {
      return new SoftwareSigner(
        createPrivateKey({ key, format: 'der', type: 'pkcs8' }).export({ type: 'pkcs8', format: 'pem' }) as string,
        record.chain.map((der) => Buffer.from(der, 'base64')),
      );
    } finally {
      key.fill(0);
    }
  }

  /** Re-seals every key under a new master key; answers how many were changed (done ones are skipped, so a rerun finishes an interrupted one). */
  async rotate(oldMaster: Buffer, newMaster: Buffer): Promise<number> {
    const target = masterKeyId(newMaster);
    let changed = 0;
    for (const record of await this.store.list()) {
      if (record.tokenKeyLabel || sealedWith(record.sealedKey) === target) continue;
      const key = unseal(oldMaster, record.sealedKey, record.id);
      await this.store.update(record.id, { sealedKey: seal(newMaster, key, record.id) });
      key.fill(0);
      changed++;
    }
    return changed;
  }

  /** Certificates that expire within 30 days (or have expired), for /health. */
  async expiring(): Promise<{ id: string; name: string; not_after: string; warning: string }[]> {
    return (await this.store.list())
      .map((record) => ({ record, warning: this.warning(record) }))
      .filter((item): item is { record: CertificateRecord; warning: string } => item.warning !== undefined)
      .map(({ record, warning }) => ({ id: record.id, name: record.name, not_after: record.notAfter, warning }));
  }

  warning(record: Pick<CertificateRecord, 'notBefore' | 'notAfter'>): string | undefined {
    const now = this.now().getTime();
    const left = Date.parse(record.notAfter) - now;
    if (left < 0) return `expired on ${readableTime(record.notAfter)}`;
    if (now < Date.parse(record.notBefore)) return `not valid before ${readableTime(record.notBefore)}`;
    if (left < EXPIRY_WARNING_DAYS * DAY_MS) {
      const days = Math.ceil(left / DAY_MS);
      return `expires in ${days} ${days === 1 ? 'day' : 'days'}, on ${readableTime(record.notAfter)}`;
    }
    return undefined;
  }

  /** The token signs a challenge; the certificate whose public key verifies it is the signer's. */
  private async readToken(keyLabel: string, certificatePem: string) {
    if (!this.token) throw new CertificateFileError('token_key_label needs a PKCS#11 token and this server has no PKCS11_MODULE');
    const challenge = randomBytes(32);
    const { signature, keyType } = await signOnToken(this.token, keyLabel, challenge);
    return describeChain(readChain(certificatePem), (cert) => verify('sha256', challenge, { key: cert.publicKey, dsaEncoding: 'der' }, signature), keyType);
  }

  private async record(id: string, keyId?: string): Promise<CertificateRecord> {
    const record = await this.store.get(id);
    if (!record || (keyId !== undefined && !usableBy(record, keyId))) throw notFound(id);
    return record;
  }

  private view(record: CertificateRecord): CertificateView {
    const warning = this.warning(record);
    return {
      id: record.id,
      name: record.name,
      owner: record.ownerKeyId,
      grants: record.grants,
      subject: record.subject,
      issuer: record.issuer,
      serial: record.serial,
      not_before: record.notBefore,
      not_after: record.notAfter,
      fingerprint: record.fingerprint,
      key_type: record.keyType,
      chain: record.chain,
      created_at: record.createdAt,
      ...(warning ? { warning } : {}),
    };
  }
}

const usableBy = (record: CertificateRecord, keyId: string): boolean =>
  record.ownerKeyId === keyId || (record.ownerKeyId === null && record.grants.includes(keyId));

const notFound = (id: string) => new ApiError('certificate_not_found', `No certificate ${id} for this key.`);
