// Wire shapes of signing certificates and verify (docs/api.md#signing).

import { z } from 'zod';

const base64 = (what: string) =>
  z
    .string()
    .min(1)
    .max(4_000_000)
    .regex(/^[A-Za-z0-9+/=\s]+$/, 'must be base64')
    .describe(what);

export const importCertificateSchema = z
  .strictObject({
    name: z.string().min(1).max(200).optional().describe('A label. Default: the certificate’s subject.'),
    owner_key_id: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('The API key the certificate belongs to. Left out: the operator’s, usable by the keys it is granted to.'),
    pkcs12: base64('A PKCS#12 (.p12, .pfx) file, base64, with its password.').optional(),
    password: z.string().max(1000).optional().describe('The PKCS#12’s password, or the PEM key’s when it is encrypted. Never stored.'),
    key_pem: z.string().min(1).max(100_000).optional().describe('A PEM private key (PKCS#8, PKCS#1 or SEC1), with certificate_pem.'),
    certificate_pem: z.string().min(1).max(1_000_000).optional().describe('The signer’s PEM certificate and its chain (any order).'),
    token_key_label: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('The label of a private key in the operator’s PKCS#11 token (PKCS11_MODULE), with certificate_pem: the key never leaves the token.'),
  })
  .superRefine((body, ctx) => {
    const p12 = body.pkcs12 !== undefined;
    const token = body.token_key_label !== undefined;
    const pem = !token && (body.key_pem !== undefined || body.certificate_pem !== undefined);
    const issue = (path: string[], message: string) => ctx.addIssue({ code: 'custom', path, message, input: undefined });
    if ([p12, pem, token].filter(Boolean).length !== 1)
      issue([], 'needs one of pkcs12 (with password), key_pem with certificate_pem, or token_key_label with certificate_pem');
    if (p12 && body.password === undefined) issue(['password'], 'is required with pkcs12');
    if (pem && (body.key_pem === undefined || body.certificate_pem === undefined))
      issue([body.key_pem === undefined ? 'key_pem' : 'certificate_pem'], 'is required with the other PEM field');
    if (token && (body.certificate_pem === undefined || body.key_pem !== undefined))
      issue(['certificate_pem'], 'is required with token_key_label (and key_pem is not)');
  })
  .describe('A certificate with its private key: a PKCS#12 and its password, a PEM key and chain, or a token key label and chain.');

export const grantsSchema = z.strictObject({
  key_ids: z.array(z.string().min(1).max(100)).max(1000).describe('Every key that may sign with this operator certificate (replaces the list).'),
});

export const certificateSchema = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.string().nullable().describe('The owning key’s id; null for an operator certificate.'),
  grants: z.array(z.string()),
  subject: z.string(),
  issuer: z.string(),
  serial: z.string(),
  not_before: z.string(),
  not_after: z.string(),
  fingerprint: z.string().describe('sha256 of the certificate’s DER, hex.'),
  key_type: z.enum(['rsa', 'ec']),
  chain: z.array(z.string()).describe('The certificates (public), signer first, DER in base64. The private key is never returned.'),
  created_at: z.string(),
  warning: z.string().optional().describe('Set when the certificate has expired, is not yet valid, or expires within 30 days.'),
});

export const certificateListSchema = z.object({ data: z.array(certificateSchema) });

export const verifyRequestSchema = z
  .union([
    z.strictObject({ pdf: base64('The PDF, base64.') }),
    z.strictObject({ document_id: z.string().min(1).max(100).describe('A document stored by this key.') }),
  ])
  .transform((body) => ('pdf' in body ? { pdf: new Uint8Array(Buffer.from(body.pdf, 'base64')) } : body))
  .describe('The PDF to check: pdf (base64) or document_id, as a merge source takes them.');

export const verifyResponseSchema = z.object({
  trust_store: z.boolean().describe('Whether the operator configured TRUST_STORE; without one no chain is trusted.'),
  signatures: z.array(z.record(z.string(), z.unknown())).describe('One report per signature field, in the file’s order (docs/api.md#verify).'),
});
