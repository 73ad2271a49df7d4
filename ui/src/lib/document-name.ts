// What a stored document is called on screen, the same on Documents and PDF tools: the filename the
// render gave, else what made it and when ("Batch item, 26 Nov 14:05"); the id alone when nothing
// else is known.

import type { StoredDocument } from '../api/types.ts';
import { formatShortDate } from './format.ts';

export function documentName(document: Pick<StoredDocument, 'id' | 'filename' | 'source' | 'created_at'>): string {
  if (document.filename) return document.filename;
  if (!document.created_at) return document.id;
  return `${document.source === 'batch' ? 'Batch item' : 'Render'}, ${formatShortDate(document.created_at)}`;
}
