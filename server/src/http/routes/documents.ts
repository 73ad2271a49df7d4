// Stored documents of the calling key (docs/api.md#stored-documents): list newest first with cursor
// paging, fetch the PDF, delete it. Another key's document or an unknown id: 404; expired: 410.
// Its operation({...}) entries look alike by design, one declaration per endpoint (docs/duplicates.md).

import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { operation } from '../operation.ts';
import { contentDisposition } from '../content-disposition.ts';
import { accountOf } from '../middleware/auth.ts';
import { documentListSchema } from '../schemas/documents.ts';
import { DEFAULT_PAGE_SIZE, listQuerySchema } from '../schemas/paging.ts';
import type { DocumentsService, StoredDocument } from '../../services/accounts/documents.ts';
import type { Page } from '../../services/accounts/paging.ts';

const TAG = 'Documents';

export function documentOperations(documents: DocumentsService) {
  return [
    operation({
      method: 'get',
      path: '/v1/documents',
      summary: 'List stored documents',
      description:
        'The calling key’s documents, newest first (documents of the same millisecond by id); expired ones are not listed. Page with limit and ' +
        'the next_cursor of the previous page: a page never skips or repeats a document when others are deleted meanwhile.',
      tag: TAG,
      auth: 'api_key',
      query: listQuerySchema,
      responses: { 200: { description: 'One page of documents.', body: documentListSchema } },
      errors: ['invalid_request', 'unauthorized'],
      handler: async ({ query }, _req, res) => {
        res.json(documentPageJson(await documents.list(accountOf(res).keyId, query.limit ?? DEFAULT_PAGE_SIZE, query.cursor)));
      },
    }),
    operation({
      method: 'get',
      path: '/v1/documents/:document_id',
      summary: 'Fetch a stored document',
      description:
        'The same PDF bytes the render answered. Once expires_at has passed: 410 document_expired, and the bytes are deleted for good ' +
        '(by the retention sweeper, or by this fetch if it comes first). The 410 holds across restarts for TOMBSTONE_DAYS (default 90) ' +
        'after expiry; then the id answers 404. Another key’s document, expired or not, is 404.',
      tag: TAG,
      auth: 'api_key',
      responses: { 200: { description: 'The PDF; Content-Disposition names the filename given with the render, if any.', body: 'pdf' } },
      errors: ['unauthorized', 'document_not_found', 'document_expired'],
      handler: async ({ params }, _req, res) => {
        await sendDocument(res, await documents.open(accountOf(res).keyId, params.document_id!));
      },
    }),
    operation({
      method: 'delete',
      path: '/v1/documents/:document_id',
      summary: 'Delete a stored document',
      description: 'The bytes are removed at once; later fetches answer 404.',
      tag: TAG,
      auth: 'api_key',
      responses: { 204: { description: 'Deleted.' } },
      errors: ['unauthorized', 'document_not_found', 'document_expired'],
      handler: async ({ params }, _req, res) => {
        await documents.remove(accountOf(res).keyId, params.document_id!);
        res.status(204).end();
      },
    }),
  ];
}

/** The wire form of a stored document (the admin's adds key_id). */
export function documentJson(document: StoredDocument) {
  return {
    id: document.id,
    filename: document.filename,
    size: document.size,
    pages: document.pages ?? null,
    created_at: document.createdAt,
    expires_at: document.expiresAt,
    source: document.source,
    ...(document.batchId ? { batch_id: document.batchId } : {}),
  };
}

export function documentPageJson(page: Page<StoredDocument>, withKey = false) {
  return {
    data: page.items.map((document) => (withKey ? { ...documentJson(document), key_id: document.keyId } : documentJson(document))),
    next_cursor: page.nextCursor,
  };
}

/** Streams a stored PDF from its open file (a delete meanwhile cannot cut it short). */
export async function sendDocument(res: Response, opened: Awaited<ReturnType<DocumentsService['open']>>): Promise<void> {
  const { document, file } = opened;
  // Everything after the open is inside the try: whatever throws, the file is closed (issue 11:
  // a header that could not be built used to leak the descriptor on every fetch).
  try {
    res
      .status(200)
      .type('application/pdf')
      .set({ 'Content-Length': String(document.size), 'X-Document-Id': document.id });
    if (document.filename) res.setHeader('Content-Disposition', contentDisposition(document.filename));
    await pipeline(file.createReadStream(), res);
  } catch {
    // The client went away, or the read failed part-way: end the connection so it sees a cut-off response.
    res.destroy();
  } finally {
    await file.close().catch(() => undefined);
  }
}
