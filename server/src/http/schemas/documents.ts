// Wire schemas of the stored-document endpoints (docs/api.md#stored-documents) and the admin's views.

import { z } from 'zod';
import { DOCUMENT_SOURCES } from '../../stores/document-record.ts';
import { nextCursorSchema } from './paging.ts';

export const documentSchema = z.object({
  id: z.string().describe('doc_...'),
  filename: z.string().nullable().describe('The filename given with the render, if any.'),
  size: z.int().describe('Bytes of the PDF.'),
  pages: z.int().nullable().describe('Its page count; null for documents kept before it was recorded, or a file whose count could not be read quickly.'),
  created_at: z.string().describe('ISO 8601'),
  expires_at: z.string().describe('ISO 8601: fixed when stored, from the plan retention then. After it: 410 and the bytes are deleted.'),
  source: z
    .enum(DOCUMENT_SOURCES)
    .describe(
      'What made it: render (POST /v1/pdf: HTML, URL, template or Markdown), batch (a batch item), office (an office conversion), merge (POST /v1/pdf/merge), transform (POST /v1/pdf/transform).',
    ),
  batch_id: z.string().optional().describe('The batch that made it (source batch).'),
});

export const documentListSchema = z.object({ data: z.array(documentSchema), next_cursor: nextCursorSchema });

const keyId = { key_id: z.string().describe('The key that stored it.') };
export const adminDocumentListSchema = z.object({ data: z.array(documentSchema.extend(keyId)), next_cursor: nextCursorSchema });
