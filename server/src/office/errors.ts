// Errors of the LibreOffice pool. No HTTP meaning here: wire/error-mapping.ts maps them.

/** What went wrong with the document itself (the bridge's codes), with a sentence for the caller. */
export type OfficeFailureCode = 'password_required' | 'password_incorrect' | 'conversion_failed' | 'unsupported_file_type' | 'too_large' | 'page_range';

/** The document could not be converted for a reason of its own: damaged, protected, of another type. */
export class OfficeConversionError extends Error {
  override readonly name = 'OfficeConversionError';
  constructor(
    readonly code: OfficeFailureCode,
    message: string,
  ) {
    super(message);
  }
}

/** LibreOffice died while converting (the document may have crashed it); the process was replaced. */
export class OfficeCrashedError extends Error {
  override readonly name = 'OfficeCrashedError';
}

/** The conversion ran past its time budget; its process was killed and replaced. */
export class OfficeTimeoutError extends Error {
  override readonly name = 'OfficeTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`LibreOffice did not finish within ${timeoutMs} ms`);
  }
}

/** No LibreOffice on this server (or it cannot be started); the sentence says how to install it. */
export class OfficeUnavailableError extends Error {
  override readonly name = 'OfficeUnavailableError';
}
