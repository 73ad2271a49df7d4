// The error of a merge source the worker cannot use (damaged, encrypted, pages it does not have).

/** A merge source that cannot be used; `index` is its place in the request's sources. */
export class MergeSourceError extends Error {
  override readonly name = 'MergeSourceError';
  constructor(
    readonly index: number,
    message: string,
    /** 'untagged': a source without the structure a PDF/UA merge keeps (422, not 400). */
    readonly reason?: 'untagged',
  ) {
    super(message);
  }
}
