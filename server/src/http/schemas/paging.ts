// The list query shared by every paged collection (docs/api.md#paging: limit 1..100, default
// 20, outside: 400; an opaque cursor) and the admin's key_id filter.

import { z } from 'zod';
import { idPattern } from '../../ids.ts';

const limit = z
  .string()
  .regex(/^\d{1,3}$/, { message: 'must be a whole number from 1 to 100', abort: true })
  .transform(Number)
  .refine((value) => value >= 1 && value <= 100, { message: 'must be a whole number from 1 to 100' })
  .optional()
  .describe('Items per page, 1 to 100 (default 20).');

const cursor = z.string().min(1).max(200).optional().describe('The next_cursor of the previous page; omit for the first page.');

export const listQuerySchema = z.object({ limit, cursor });

export const adminListQuerySchema = z.object({
  limit,
  cursor,
  key_id: z
    .string()
    .regex(idPattern('key'), { message: 'must be a key id such as key_3kT9...' })
    .optional()
    .describe('Only this key’s items (revoked keys included).'),
});

export const DEFAULT_PAGE_SIZE = 20;

export const nextCursorSchema = z.string().nullable().describe('Pass as cursor to get the next page; null on the last page.');
