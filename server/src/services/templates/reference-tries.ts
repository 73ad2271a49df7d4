// How a template version's reference is made in the background after a save: tried again after a
// failure that load or a crash explains (a render timeout, a crashed page or browser, a failed
// write), under a lease renewed all along, so a check through another instance keeps waiting for
// this reference instead of making one of its own (docs/decisions.md#a-versions-reference-is-tried-again-under-a-lease-issue-40).

import { ApiError } from '../../errors.ts';
import { RendererClosedError } from '../../render/errors.ts';
import { outcomeOf } from '../../render/page-errors.ts';

/** Tries of a background reference render before it is abandoned (other instances then make their own). */
export const REFERENCE_TRIES = 3;

/**
 * Whether a failed reference render may pass on another try. Not when the template or its sample
 * data fail every time (an API error, bad input, a page that cannot load, a blocked address), nor
 * when the renderer is shutting down: the reference is then abandoned at once.
 */
export function worthAnotherTry(error: unknown): boolean {
  if (error instanceof ApiError || error instanceof RendererClosedError) return false;
  return !['invalid_input', 'navigation_failed', 'blocked'].includes(outcomeOf(error));
}

/**
 * Runs `work` while calling `renew` every renewMs (the maker's lease on the reference). A renewal
 * that fails is left to the next one: at worst the lease runs out, as for an instance that died.
 */
export async function underLease<T>(renew: () => Promise<void>, renewMs: number, work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => void renew().catch(() => undefined), renewMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
