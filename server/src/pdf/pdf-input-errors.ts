// What can be wrong with a PDF a caller sent us (an upload or a stored document) when we read or
// draw it: no password or the wrong one, a damaged file, more pages or pixels than a call may take,
// or more time than it may use. Thrown on the PDF worker threads; wire/error-mapping.ts gives them
// their codes (docs/api.md#pdf-tools).

export type PdfInputProblem = 'not_pdf' | 'password_required' | 'password_incorrect' | 'damaged' | 'too_large' | 'timeout' | 'page_range';

export class PdfInputError extends Error {
  override readonly name = 'PdfInputError';
  constructor(
    readonly code: PdfInputProblem,
    /** The request field that carried the PDF ("pdf", "document_id", "file"). */
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Whether a thrown shape (from a worker thread or not) is a PdfInputError. */
export function isPdfInputProblem(code: string | undefined): code is PdfInputProblem {
  return ['not_pdf', 'password_required', 'password_incorrect', 'damaged', 'too_large', 'timeout', 'page_range'].includes(code ?? '');
}
