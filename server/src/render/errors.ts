// Errors the renderer throws. They carry no HTTP meaning: wire/error-mapping.ts maps them.

/** Every slot is busy and the wait queue is full, or the wait took too long. */
export class RendererBusyError extends Error {
  override readonly name = 'RendererBusyError';
  constructor(
    readonly retryAfterSeconds: number,
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * The browser died or restarted under this render, or the page's renderer process crashed
 * (scope 'page'); a retry will land on a fresh one. Renderer retries a render once on it.
 */
export class RendererCrashedError extends Error {
  override readonly name = 'RendererCrashedError';
  constructor(
    message: string,
    readonly scope: 'browser' | 'page' = 'browser',
  ) {
    super(message);
  }
}

/**
 * The page crashed its renderer process twice, on two fresh pages, with nothing else in the way:
 * its content does it (a client error, not retried). Not a RendererCrashedError, so nothing retries it.
 */
// The classes below look alike but each is a failure of its own that wire/error-mapping.ts answers with its own code.
export class PageCrashedError extends Error {
  override readonly name = 'PageCrashedError';
}

/** The render's time budget (options.timeout_ms) ran out. */
export class RenderTimeoutError extends Error {
  override readonly name = 'RenderTimeoutError';
  constructor(
    readonly timeoutMs: number,
    readonly stage: string,
  ) {
    super(`render did not finish within ${timeoutMs} ms (while ${stage})`);
  }
}

/** The target of a `url` render could not be loaded (DNS, TLS, refused, HTTP status >= 400). */
export class NavigationError extends Error {
  override readonly name = 'NavigationError';
}

/** The request asked for something the document cannot give (a page range beyond its pages, a bad selector). */
export class RenderInputError extends Error {
  override readonly name = 'RenderInputError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The renderer is shutting down and takes no new work. */
export class RendererClosedError extends Error {
  override readonly name = 'RendererClosedError';
}
