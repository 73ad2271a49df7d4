// A signing certificate as the admin API answers it (GET/POST /admin/v1/certificates, docs/api.md#signing):
// the wire shape, snake_case, shared by the server (services/certificates.ts builds it), the
// command line and the admin UI (ui/src/api/certificates.ts), so they cannot drift. Types only.

export interface CertificateView {
  id: string;
  name: string;
  /** The importing key's id; null for the operator's certificates. */
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
  chain: string[];
  created_at: string;
  /** Set when the certificate is expired, not yet valid, or expires within 30 days. */
  warning?: string;
}
