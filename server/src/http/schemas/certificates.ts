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
  })
  .superRefine((body, ctx) => {
    const p12 = body.pkcs12 !== undefined;
    const pem = body.key_pem !== undefined || body.certificate_pem !== undefined;
    if (p12 === pem)
      ctx.addIssue({ code: 'custom', path: [], message: 'needs either pkcs12 (with password) or key_pem and certificate_pem', input: undefined });
    if (p12 && body.password === undefined) ctx.addIssue({ code: 'custom', path: ['password'], message: 'is required with pkcs12', input: undefined });
    if (pem && (body.key_pem === undefined || body.certificate_pem === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [body.key_pem === undefined ? 'key_pem' : 'certificate_pem'],
        message: 'is required with the other PEM field',
        input: undefined,
      });
  })
  .describe('A certificate with its private key: a PKCS#12 and its password, or a PEM key and chain.');

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
