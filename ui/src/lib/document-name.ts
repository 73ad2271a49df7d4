// What a stored document is called on screen, the same on Documents and PDF tools: the filename the
// render gave, else what made it and when ("Batch item, 26 Nov 14:05"); the id alone when nothing
// else is known. And the label of what made it, in the Documents list's Source column.

import type { StoredDocument } from '../api/types.ts';
import { formatShortDate } from './format.ts';

/** Each source's label (docs/api.md#stored-documents). */
const SOURCE_LABELS: Record<StoredDocument['source'], string> = {
  render: 'Render',
  batch: 'Batch',
  office: 'Office',
  merge: 'Merge',
  transform: 'Transform',
};

/** What made the document, as the Source column says it; a source a newer server added reads as its own name. */
export function sourceLabel(source: StoredDocument['source']): string {
  return SOURCE_LABELS[source] ?? source;
}

export function documentName(document: Pick<StoredDocument, 'id' | 'filename' | 'source' | 'created_at'>): string {
  if (document.filename) return document.filename;
  if (!document.created_at) return document.id;
  return `${document.source === 'batch' ? 'Batch item' : sourceLabel(document.source)}, ${formatShortDate(document.created_at)}`;
}
