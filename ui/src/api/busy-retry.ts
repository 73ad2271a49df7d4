// The admin window's reads that the server may refuse because its PDF tools are all busy (503
// renderer_busy, "safe to retry"): tried again after the server's Retry-After, with a growing
// back-off, a few times, before the failure reaches the screen (issue 39, item 8).

import { ApiFailure } from './client.ts';

/** Tries in all, and the back-off when the server names no Retry-After (1 s, 2 s, 4 s...). */
const TRIES = 4;
const FIRST_BACKOFF_MS = 1000;

/** Runs `attempt`, and again while it fails with renderer_busy, up to TRIES times; an abort ends the wait. */
export async function retryWhenBusy<T>(attempt: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ApiFailure) || error.code !== 'renderer_busy' || tried >= TRIES) throw error;
      const backoff = FIRST_BACKOFF_MS * 2 ** (tried - 1);
      // Jitter: a screen of thumbnails refused together should not come back together.
      await pause(Math.max(backoff, (error.retryAfter ?? 0) * 1000) * (0.75 + Math.random() / 2), signal);
    }
  }
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}
