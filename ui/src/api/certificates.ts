// docs/api.md#signing-pades: signing certificates. Private keys go in (import) and never come back.

import type { CertificateJson } from '../../../server/src/shapes/certificate-json.ts';
import { daysUntil } from '../lib/format.ts';
import { call, callJson } from './client.ts';

export type Certificate = CertificateJson;

export type CertificateImport = { name?: string; owner_key_id?: string } & (
  | { pkcs12: string; password: string }
  | { key_pem: string; certificate_pem: string; password?: string }
);

export async function listCertificates(signal?: AbortSignal): Promise<Certificate[]> {
  return (await callJson<{ data: Certificate[] }>('GET', '/admin/v1/certificates', { admin: true, signal })).data;
}

export function importCertificate(input: CertificateImport): Promise<Certificate> {
  return callJson<Certificate>('POST', '/admin/v1/certificates', { admin: true, body: input });
}

export function setCertificateGrants(id: string, keyIds: string[]): Promise<Certificate> {
  return callJson<Certificate>('PUT', `/admin/v1/certificates/${encodeURIComponent(id)}/grants`, { admin: true, body: { key_ids: keyIds } });
}

export async function deleteCertificate(id: string): Promise<void> {
  await call('DELETE', `/admin/v1/certificates/${encodeURIComponent(id)}`, { admin: true });
}

/** The certificates a key may sign with: its own and the operator's granted to it. */
export const usableBy = (certificates: Certificate[], keyId: string): Certificate[] =>
  certificates.filter((certificate) => certificate.owner === keyId || (certificate.owner === null && certificate.grants.includes(keyId)));

/** Days until the certificate expires (negative once it has), for the list's warning: the server's count (daysUntil). */
export const daysLeft = (certificate: Certificate, now = Date.now()): number => daysUntil(certificate.not_after, now);
