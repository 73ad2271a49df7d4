// certificates.json: the signing certificates (docs/api.md#signing). Each record holds the public
// facts (subject, issuer, serial, validity, fingerprint, the chain) and the private key sealed
// with AES-256-GCM under the operator's master key (services/key-seal.ts): this store never sees
// a key in the clear. Written like keys.json: durably first (mode 0600), memory after.

import path from 'node:path';
import type { CertificateFacts } from '../signing/certificate-files.ts';
import { openJsonFile, type JsonFile } from './json-file.ts';

export interface CertificateRecord extends CertificateFacts {
  id: string;
  name: string;
  /** The API key that imported it; null: the operator's, usable by the keys in grants. */
  ownerKeyId: string | null;
  grants: string[];
  /** The signer certificate first, then its chain: DER, base64. */
  chain: string[];
  /** The PKCS#8 private key sealed under the master key (key-seal.ts); empty for a token's key. */
  sealedKey: string;
  /** Set when the key stays in the PKCS#11 token (PKCS11_MODULE): its label there. */
  tokenKeyLabel?: string;
  createdAt: string;
}

export type CertificateChanges = Partial<Pick<CertificateRecord, 'grants' | 'sealedKey' | 'name'>>;

/** Signing certificates, wherever they are kept: the file here or stores/pg/certificates.ts. */
export interface CertificateStore {
  /** Every certificate, oldest first. */
  list(): Promise<CertificateRecord[]>;
  get(id: string): Promise<CertificateRecord | undefined>;
  insert(record: CertificateRecord): Promise<void>;
  /** undefined when there is no such certificate. */
  update(id: string, changes: CertificateChanges): Promise<CertificateRecord | undefined>;
  /** Whether there was one to delete. */
  delete(id: string): Promise<boolean>;
}

interface CertificatesFile {
  certificates: CertificateRecord[];
}

export class FileCertificateStore implements CertificateStore {
  private records: CertificateRecord[];
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly file: JsonFile<CertificatesFile>,
    data: CertificatesFile,
  ) {
    this.records = data.certificates;
  }

  static async open(dataDir: string): Promise<FileCertificateStore> {
    const { file, data } = await openJsonFile<CertificatesFile>(path.join(dataDir, 'certificates.json'), validate, { certificates: [] });
    return new FileCertificateStore(file, data);
  }

  async list(): Promise<CertificateRecord[]> {
    return [...this.records].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async get(id: string): Promise<CertificateRecord | undefined> {
    return this.records.find((record) => record.id === id);
  }

  insert(record: CertificateRecord): Promise<void> {
    return this.change((records) => [...records, record]).then(() => undefined);
  }

  async update(id: string, changes: CertificateChanges): Promise<CertificateRecord | undefined> {
    let updated: CertificateRecord | undefined;
    await this.change((records) =>
      records.map((record) => {
        if (record.id !== id) return record;
        updated = { ...record, ...changes };
        return updated;
      }),
    );
    return updated;
  }

  async delete(id: string): Promise<boolean> {
    const before = this.records.length;
    await this.change((records) => records.filter((record) => record.id !== id));
    return this.records.length < before;
  }

  /** One change at a time: written durably, then applied to memory. */
  private change(next: (records: CertificateRecord[]) => CertificateRecord[]): Promise<void> {
    const run = this.queue.then(async () => {
      const records = next(this.records);
      await this.file.write({ certificates: records });
      this.records = records;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function validate(data: unknown): string | undefined {
  const certificates = (data as CertificatesFile | null)?.certificates;
  if (!Array.isArray(certificates)) return 'no certificates list';
  for (const [i, record] of certificates.entries()) {
    if (typeof record?.id !== 'string' || typeof record.sealedKey !== 'string' || !Array.isArray(record.chain) || !Array.isArray(record.grants))
      return `certificate ${i} is incomplete`;
  }
  return undefined;
}
