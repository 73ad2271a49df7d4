// The admin's view of stored documents across keys (docs/api.md#documents-templates-and-batches-of-every-key): the same
// shapes as /v1 plus key_id, the same paging, an optional key_id filter. Documents of revoked
// keys stay reachable here until their retention ends.
// Its operation({...}) entries look alike by design, one declaration per endpoint (docs/duplicates.md).

import { operation } from '../operation.ts';
import { adminDocumentListSchema } from '../schemas/documents.ts';
import { adminListQuerySchema, DEFAULT_PAGE_SIZE } from '../schemas/paging.ts';
import type { DocumentsService } from '../../services/accounts/documents.ts';
import { documentPageJson, sendDocument } from './documents.ts';

const TAG = 'Admin: documents and templates';

export function adminDocumentOperations(documents: DocumentsService) {
  return [
    operation({
      method: 'get',
      path: '/admin/v1/documents',
      summary: 'List stored documents of every key',
      description: 'Newest first, expired ones not listed; key_id keeps one key’s (revoked keys included).',
      tag: TAG,
      auth: 'admin',
      query: adminListQuerySchema,
      responses: { 200: { description: 'One page of documents.', body: adminDocumentListSchema } },
      errors: ['invalid_request', 'unauthorized'],
      handler: async ({ query }, _req, res) => {
        res.json(documentPageJson(await documents.list(query.key_id, query.limit ?? DEFAULT_PAGE_SIZE, query.cursor), true));
      },
    }),
    operation({
      method: 'get',
      path: '/admin/v1/documents/:document_id',
      summary: 'Fetch any stored document',
      tag: TAG,
      auth: 'admin',
      responses: { 200: { description: 'The PDF.', body: 'pdf' } },
      errors: ['unauthorized', 'document_not_found', 'document_expired'],
      handler: async ({ params }, _req, res) => {
        await sendDocument(res, await documents.open(undefined, params.document_id!));
      },
    }),
    operation({
      method: 'delete',
      path: '/admin/v1/documents/:document_id',
      summary: 'Delete any stored document',
      tag: TAG,
      auth: 'admin',
      responses: { 204: { description: 'Deleted; the bytes are removed at once.' } },
      errors: ['unauthorized', 'document_not_found', 'document_expired'],
      handler: async ({ params }, _req, res) => {
        await documents.remove(undefined, params.document_id!);
        res.status(204).end();
      },
    }),
  ];
}
