// The stored copy a render, conversion, merge or transform commits with its charge
// (RenderService): its record, with what made it and its page count. The count is its maker's
// when it knows it, else read from the bytes, so the Documents screen shows it for every kind.

import { pageCountOf } from '../../pdf/finisher.ts';
import { countPages } from '../../pdf/page-count.ts';
import type { DocumentSource } from '../../stores/document-record.ts';
import type { DocumentsService, StoragePlan } from '../accounts/documents.ts';
import type { Account } from '../accounts/keys.ts';
import type { Made, RenderContext } from './context.ts';

/** An output that may be kept: the bytes after the final steps, and as its maker gave them. */
export interface Output {
  /** The final bytes (after PDF/A, attachments, signing): what is kept. */
  pdf: Uint8Array;
  /** What the maker answered, before the final steps. */
  made: Made;
  source: DocumentSource;
  filename?: string;
}

/** The stored copy to commit with the charge, when the output is kept: a batch item's under its fixed id, as source batch. */
export async function keptCopy(
  documents: Pick<DocumentsService, 'recordFor'>,
  account: Account,
  storage: StoragePlan | undefined,
  output: Output,
  batchItem?: RenderContext['batchItem'],
) {
  if (!storage) return undefined;
  const record = documents.recordFor({
    keyId: account.keyId,
    storage,
    pdf: output.pdf,
    filename: output.filename,
    source: batchItem ? 'batch' : output.source,
    pages: await pagesOf(output),
    batchId: batchItem?.batchId,
    id: batchItem?.documentId,
  });
  return { record, pdf: output.pdf };
}

/** The bytes a maker answered (with or without its page count). */
export function bytesOf(made: Made): Uint8Array {
  return made instanceof Uint8Array ? made : made.pdf;
}

/**
 * The kept PDF's page count: its maker's, else read from the final bytes or from the maker's
 * (the final steps add no pages, but pdf-lib rewrites them into object streams the cheap read
 * cannot follow), on the PDF worker when the cheap read cannot. None when nothing reads it (an
 * encrypted file whose maker gave no count): a count is not worth failing a kept render for.
 */
async function pagesOf({ pdf, made }: Output): Promise<number | undefined> {
  if (!(made instanceof Uint8Array)) return made.pages;
  return (
    countPages(pdf) ??
    pageCountOf(made)
      .catch(() => pageCountOf(pdf))
      .catch(() => undefined)
  );
}
