// Signing certificates (docs/api.md#signing): the operator imports, lists, grants and deletes them
// through the admin API; a key lists those it may sign with. Private keys go in, never out.
// POST /v1/pdf/verify checks the signatures of an uploaded or stored PDF.
// Its operation({...}) entries look alike by design, one declaration per endpoint (docs/duplicates.md).

import { PDF_BODY } from '../body-limits.ts';
import type { CertificatesService } from '../../services/signing/certificates.ts';
import type { VerifyService } from '../../services/signing/signing.ts';
import { accountOf } from '../middleware/auth.ts';
import { operation } from '../operation.ts';
import {
  certificateListSchema,
  certificateSchema,
  grantsSchema,
  importCertificateSchema,
  verifyRequestSchema,
  verifyResponseSchema,
} from '../schemas/certificates.ts';

const TAG = 'Signing';

export function certificateOperations(certificates: CertificatesService, verify: VerifyService) {
  return [
    operation({
      method: 'post',
      path: '/admin/v1/certificates',
      summary: 'Import a signing certificate with its private key',
      description:
        'PKCS#12 with its password, or a PEM key and chain. The key is sealed with AES-256-GCM under the operator’s master key before it is stored, and is never returned. owner_key_id gives it to one key; left out, it is the operator’s and signs for the keys it is granted to.',
      tag: TAG,
      auth: 'admin',
      body: importCertificateSchema,
      responses: { 201: { description: 'The certificate (public facts only).', body: certificateSchema } },
      errors: ['invalid_json', 'invalid_request', 'unauthorized', 'certificate_invalid'],
      handler: async ({ body }, _req, res) => {
        const source =
          body.pkcs12 !== undefined
            ? { pkcs12: new Uint8Array(Buffer.from(body.pkcs12, 'base64')), password: body.password ?? '' }
            : body.token_key_label !== undefined
              ? { tokenKeyLabel: body.token_key_label, certificatePem: body.certificate_pem! }
              : { keyPem: body.key_pem!, certificatePem: body.certificate_pem!, password: body.password };
        res.status(201).json(await certificates.import(source, body.owner_key_id ?? null, body.name));
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/certificates',
      summary: 'List every signing certificate',
      tag: TAG,
      auth: 'admin',
      responses: { 200: { description: 'Oldest first.', body: certificateListSchema } },
      errors: ['unauthorized'],
      handler: async (_input, _req, res) => {
        res.json({ data: await certificates.listAll() });
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/certificates/:id',
      summary: 'One signing certificate',
      tag: TAG,
      auth: 'admin',
      responses: { 200: { description: 'The certificate.', body: certificateSchema } },
      errors: ['unauthorized', 'certificate_not_found'],
      handler: async ({ params }, _req, res) => {
        res.json(await certificates.get(params.id!));
      },
    }),
    operation({
      method: 'put',
      path: '/admin/v1/certificates/:id/grants',
      summary: 'Set the keys that may sign with an operator certificate',
      tag: TAG,
      auth: 'admin',
      body: grantsSchema,
      responses: { 200: { description: 'The certificate.', body: certificateSchema } },
      errors: ['invalid_json', 'invalid_request', 'unauthorized', 'certificate_not_found'],
      handler: async ({ body, params }, _req, res) => {
        res.json(await certificates.grant(params.id!, body.key_ids));
      },
    }),
    operation({
      method: 'delete',
      path: '/admin/v1/certificates/:id',
      summary: 'Delete a signing certificate and its sealed key',
      tag: TAG,
      auth: 'admin',
      responses: { 204: { description: 'Deleted.' } },
      errors: ['unauthorized', 'certificate_not_found'],
      handler: async ({ params }, _req, res) => {
        await certificates.delete(params.id!);
        res.status(204).end();
      },
    }),
    operation({
      method: 'get',
      path: '/v1/certificates',
      summary: 'The certificates this key may sign with',
      description: 'Its own and the operator’s granted to it, each with a warning when it expires within 30 days.',
      tag: TAG,
      auth: 'api_key',
      responses: { 200: { description: 'Oldest first.', body: certificateListSchema } },
      errors: ['unauthorized'],
      handler: async (_input, _req, res) => {
        res.json({ data: await certificates.listFor(accountOf(res).keyId) });
      },
    }),
    operation({
      method: 'post',
      path: '/v1/pdf/verify',
      summary: 'Check every signature of a PDF',
      description:
        'For each signature: signer, claimed signing time, timestamp and its authority, whether the byte range covers the whole file or the file up to its revision, what later updates changed (pages, annotations, other signatures, other objects), the chain and whether it reaches a root of the operator’s TRUST_STORE, and validity at the time of signing. Not charged.',
      tag: TAG,
      auth: 'api_key',
      body: verifyRequestSchema,
      bodyLimit: PDF_BODY,
      responses: { 200: { description: 'One report per signature (empty when the file has none).', body: verifyResponseSchema } },
      errors: [
        'invalid_json',
        'invalid_request',
        'unauthorized',
        'document_not_found',
        'document_expired',
        'payload_too_large',
        'password_required',
        'pdf_unreadable',
      ],
      handler: async ({ body }, _req, res) => {
        res.json(await verify.verify(body, accountOf(res).keyId));
      },
    }),
  ];
}
