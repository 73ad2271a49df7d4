// The errors of PDF inputs and of the tools that work on them (qpdf, Ghostscript). They carry no
// HTTP meaning; wire/error-mapping.ts turns them into contract codes once.

/** Why an input PDF cannot be used. `field` names it in the request (pdf, document_id, sources[2]...). */
export type PdfInputProblem = 'password_required' | 'password_incorrect' | 'unreadable' | 'too_large' | 'not_pdf';

/**
 * Whether the bytes open as a PDF should: "%PDF-" within the first kilobyte (where readers look for it).
 * The cheap check before any work; a damaged file past it is found by the tool that opens it.
 */
export function hasPdfHeader(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 1024)).toString('latin1').includes('%PDF-');
}

/** The refusal of bytes without that header, naming the field ("pdf is not a PDF" read as a riddle). */
export function notPdfMessage(field: string): string {
  return `The file given as ${field} is not a PDF: its first kilobyte has no %PDF- header`;
}

/** A PDF a user gave that is refused: encrypted without (or with a wrong) password, damaged, or past a limit. */
export class PdfInputError extends Error {
  override readonly name = 'PdfInputError';
  constructor(
    readonly problem: PdfInputProblem,
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** A request option the document cannot take (an image that does not decode); the worker passes it on. */
export class FinishInputError extends Error {
  override readonly name = 'FinishInputError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** A PDF tool that is not installed on this server (`tool` names it: qpdf, gs). */
export class PdfToolMissingError extends Error {
  override readonly name = 'PdfToolMissingError';
  constructor(readonly tool: string) {
    super(`${tool} is not installed on this server`);
  }
}

/** A PDF tool that ran past its time budget and was killed. */
export class PdfToolTimeoutError extends Error {
  override readonly name = 'PdfToolTimeoutError';
  constructor(
    readonly tool: string,
    readonly timeoutMs: number,
  ) {
    super(`${tool} did not finish within ${timeoutMs} ms`);
  }
}

/** A step's request that the document cannot satisfy (a page it lacks, a form field it has not); `field` names the step. */
export class PdfStepError extends Error {
  override readonly name = 'PdfStepError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}
