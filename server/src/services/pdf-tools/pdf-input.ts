// One way to take a PDF a user holds, for every call that works on one (transform, images,
// inspect): uploaded bytes (base64 in JSON or a multipart part named file) or a stored document
// of the same key, with the password of an encrypted one. Checked and opened (pdf/pdf-open.ts)
// before anything is charged: a hostile or damaged input is refused here.

import { buffer } from 'node:stream/consumers';
import { ApiError } from '../../errors.ts';
import { openPdf, PDF_INPUT_LIMITS } from '../../pdf/pdf-open.ts';
import type { DecodedLimits } from '../../pdf/stream-budget.ts';
import type { DocumentsService } from '../accounts/documents.ts';
import type { Account } from '../accounts/keys.ts';

/** A PDF as a request names it: exactly one of pdf (bytes) and document_id. */
export interface PdfInput {
  pdf?: Uint8Array;
  document_id?: string;
  /** The name of the uploaded file (a multipart part's filename), for the result's name. */
  filename?: string;
  /** Opens an encrypted input (user or owner password). */
  password?: string;
}

/** An input ready to work on. */
export interface PdfInputBytes {
  /** Decrypted and, where qpdf had to, repaired. */
  pdf: Uint8Array;
  /** The bytes as given (encrypted, if they were): for a caller that reports on the file itself. */
  original: Uint8Array;
  /** The upload's or the stored document's file name, when it had one. */
  filename?: string;
  pageCount: number;
  encrypted: boolean;
}

export interface PdfInputDeps {
  documents: Pick<DocumentsService, 'open'>;
  /** What an input's streams may unpack to (PDF_STREAM_* settings); the defaults when absent. */
  decoded?: Partial<DecodedLimits>;
}

/**
 * The bytes of a PDF input, opened and checked; `field` prefixes the errors (`pdf`, `source`).
 * 404 document_not_found for an id of another key, 422 password_required / password_incorrect for
 * an encrypted one, 413 past PDF_INPUT_LIMITS, 422 pdf_unreadable when damaged beyond repair.
 */
export async function readPdfInput(input: PdfInput, account: Account, field: string, deps: PdfInputDeps): Promise<PdfInputBytes> {
  const at = (name: string) => (field ? `${field}.${name}` : name);
  if ((input.pdf === undefined) === (input.document_id === undefined))
    throw new ApiError(
      'invalid_request',
      input.pdf === undefined
        ? `${field || 'The request'} needs a PDF: pdf (base64), a multipart part named file, or document_id`
        : `${field || 'The request'} takes one of pdf (or a file part) and document_id, not both`,
    );
  let original: Uint8Array;
  let filename = input.filename;
  let name: string;
  if (input.pdf !== undefined) {
    original = input.pdf;
    name = at('pdf');
  } else {
    name = at('document_id');
    const { document, file } = await deps.documents.open(account.keyId, input.document_id!).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'document_not_found')
        throw new ApiError('document_not_found', `${name} ${input.document_id} was not found`);
      throw error;
    });
    try {
      original = new Uint8Array(await buffer(file.createReadStream()));
    } finally {
      await file.close();
    }
    filename ??= document.filename ?? undefined;
  }
  const opened = await openPdf(original, { password: input.password, field: name, decoded: deps.decoded });
  return { pdf: opened.pdf, original, filename, pageCount: opened.pageCount, encrypted: opened.encrypted };
}

export { PDF_INPUT_LIMITS };
