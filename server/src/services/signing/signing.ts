// Builds signing's collaborators from the settings (app.ts calls it once): the certificates service
// with its master key loaded on first use, the sign step for services/output/steps.ts, and the
// verify service with the operator's trust store. A TSA_URL off the TSA_ALLOW_HOSTS list or an
// unreadable TRUST_STORE stops start-up with the reason.

import { readFile } from 'node:fs/promises';
import { ConfigError, type Config } from '../../config.ts';
import { decodedLimitsOf } from '../../settings/pdf-input.ts';
import { verifyInWorker } from '../../signing/signing-pool.ts';
import { checkTsaConfig, type TsaConfig } from '../../signing/tsa.ts';
import { tokenConfig } from '../../signing/pkcs11.ts';
import type { SignatureReport } from '../../signing/verify.ts';
import type { CertificateStore } from '../../stores/certificates.ts';
import { loadMasterKey } from '../../stores/signing-master-key.ts';
import { CertificatesService } from './certificates.ts';
import type { DocumentsService } from '../accounts/documents.ts';
import type { Account } from '../accounts/keys.ts';
import { readPdfInput, type PdfInputDeps } from '../pdf-tools/pdf-input.ts';
import { SignStep } from './sign-step.ts';

export type SigningConfig = Pick<
  Config,
  | 'dataDir'
  | 'signingKeyFile'
  | 'signingKey'
  | 'tsaUrl'
  | 'tsaCredentials'
  | 'tsaAllowHosts'
  | 'tsaTimeoutMs'
  | 'trustStore'
  | 'pkcs11Module'
  | 'pkcs11TokenLabel'
  | 'pkcs11Pin'
  | 'pdfStreamMaxBytes'
  | 'pdfStreamsMaxBytes'
  | 'pdfStreamCheckTimeoutMs'
>;

export interface Signing {
  certificates: CertificatesService;
  step: SignStep;
  verify: VerifyService;
}

export async function openSigning(config: SigningConfig, store: CertificateStore, documents: DocumentsService, now?: () => Date): Promise<Signing> {
  const tsa: TsaConfig | undefined = config.tsaUrl
    ? { url: config.tsaUrl, allowHosts: [...config.tsaAllowHosts], timeoutMs: config.tsaTimeoutMs, credentials: config.tsaCredentials || undefined }
    : undefined;
  if (tsa) {
    try {
      checkTsaConfig(tsa);
    } catch (error) {
      throw new ConfigError((error as Error).message);
    }
  }
  let master: Promise<Buffer> | undefined;
  const masterKey = () => {
    master ??= loadMasterKey(config).catch((error: unknown) => {
      master = undefined;
      throw error;
    });
    return master;
  };
  const trustPem = config.trustStore
    ? await readFile(config.trustStore, 'utf8').catch((error: unknown) => {
        throw new ConfigError(`TRUST_STORE ${config.trustStore} cannot be read: ${(error as Error).message}`);
      })
    : '';
  const certificates = new CertificatesService(store, masterKey, now, tokenConfig(config));
  return { certificates, step: new SignStep(certificates, tsa), verify: new VerifyService(trustPem, { documents, decoded: decodedLimitsOf(config) }) };
}

export type VerifyInput = { pdf: Uint8Array } | { document_id: string };

/** POST /v1/pdf/verify: an uploaded or stored PDF's signatures, checked on the signing worker. */
export class VerifyService {
  constructor(
    private readonly trustPem: string,
    private readonly inputs: PdfInputDeps,
  ) {}

  async verify(input: VerifyInput, keyId: string): Promise<{ signatures: SignatureReport[]; trust_store: boolean }> {
    // Through the one gate of PDF inputs (limits, stream budget); the signatures are checked on the
    // bytes as sent, since a repaired copy no longer matches their byte ranges.
    const { original } = await readPdfInput(input, { keyId } as Account, '', this.inputs);
    return { signatures: await verifyInWorker(original, { trustPem: this.trustPem }), trust_store: this.trustPem.length > 0 };
  }
}
