// The signing layer's own errors; wire/error-mapping.ts turns them into contract codes.

/** The PDF or the sign options cannot be signed as asked (a 400 naming options.sign). */
export class SignInputError extends Error {
  override readonly name = 'SignInputError';
  constructor(
    message: string,
    readonly field = 'options.sign',
  ) {
    super(message);
  }
}

/** The time-stamping authority did not answer in time or answered with no token (a 503). */
export class TimestampUnavailableError extends Error {
  override readonly name = 'TimestampUnavailableError';
}
