// What a failed render's error means: puppeteer's and CDP's errors turned into the renderer's own
// (errors.ts), and the outcome each error counts as in the metrics. Apart from the renderer so the
// render in a slot and the header lane translate errors the same way.

import { NavigationError, PageCrashedError, RenderInputError, RenderTimeoutError, RendererCrashedError } from './errors.ts';
import type { RenderOutcome } from './render-job.ts';

/** Turns puppeteer's errors into the renderer's own. */
export function translatePageError(error: unknown): Error {
  if (error instanceof RenderTimeoutError || error instanceof NavigationError || error instanceof RenderInputError || error instanceof RendererCrashedError) {
    return error;
  }
  const message = String((error as Error)?.message ?? error);
  if (/Page range exceeds page count|page range/i.test(message)) {
    return new RenderInputError('options.page_ranges', 'options.page_ranges selects pages that the document does not have');
  }
  if (/Target closed|Session closed|Connection closed|browser has disconnected|detached/i.test(message)) {
    return new RendererCrashedError('the browser closed during the render');
  }
  return error as Error;
}

export function outcomeOf(error: unknown): RenderOutcome {
  if (error instanceof RenderTimeoutError) return 'timeout';
  if (error instanceof NavigationError) return 'navigation_failed';
  if (error instanceof RenderInputError) return 'invalid_input';
  if (error instanceof RendererCrashedError) return 'crashed';
  if (error instanceof PageCrashedError) return 'page_crashed';
  if ((error as Error)?.name === 'RendererBusyError') return 'busy';
  // Thrown by the source's checkRedirect (the network guard), which render/ does not import.
  if ((error as Error)?.name === 'BlockedUrlError') return 'blocked';
  return 'error';
}
