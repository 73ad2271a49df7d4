// The one error the payment codes throw: data a bank would refuse, named by its field, so the
// caller can answer a 400 that says which value is wrong (wire/error-mapping.ts maps it to
// invalid_request). Nothing here knows HTTP.

/** Payment data that cannot make a valid code; `field` is the attribute as the caller spelled it. */
export class PaymentDataError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = 'PaymentDataError';
  }
}
