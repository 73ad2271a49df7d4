// The error of a merge source the worker cannot use (damaged, encrypted, pages it does not have).

/** A merge source that cannot be used; `index` is its place in the request's sources. */
export class MergeSourceError extends Error {
  override readonly name = 'MergeSourceError';
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}
