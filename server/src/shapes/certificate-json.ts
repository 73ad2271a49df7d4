// A signing certificate as the API shows it (GET/POST /admin/v1/certificates, docs/api.md#signing-pades):
// the wire shape, snake_case, shared by the server (services/signing/certificates.ts) and the admin UI
// (ui/src/api/certificates.ts), so the two cannot drift. Types only: no imports, nothing at run time.

export interface CertificateJson {
  id: string;
  name: string;
  /** The owning key's id; null for an operator certificate. */
  owner: string | null;
  grants: string[];
  subject: string;
  issuer: string;
  serial: string;
  not_before: string;
  not_after: string;
  /** sha256 of the certificate's DER, hex. */
  fingerprint: string;
  key_type: 'rsa' | 'ec';
  /** The certificates (public), signer first, DER in base64. The private key is never returned. */
  chain: string[];
  created_at: string;
  /** Set when the certificate is expired, not yet valid, or expires within 30 days. */
  warning?: string;
}
