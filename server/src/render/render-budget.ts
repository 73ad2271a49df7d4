// What a render may spend while it holds a page: its time (Budget, one deadline for loading, waits
// and printing) and its render slot (HeldSlot, shared by a crashed render's retry; handBack, which
// never lets a page that will not close keep the slot). Apart from the renderer so the render in a
// slot (render-in-slot.ts) and the header lane use the same rules.

import type { PageLease } from './page-source.ts';
import { RenderTimeoutError } from './errors.ts';
import { settleWithin } from './settle-within.ts';

/** How long clean-up (a page's release, a render's undo steps) is waited on before it is given up. */
export const RELEASE_WAIT_MS = 5000;

/** Races page work against the render's deadline (and the page's failure, while it has one). */
export class Budget {
  private timer: NodeJS.Timeout | undefined;
  private readonly expired: Promise<never>;
  private failed: Promise<never> | undefined;
  /** What the render is doing, for the timeout's message. */
  stage: () => string = () => 'starting';

  constructor(
    private readonly deadline: number,
    private readonly timeoutMs: number,
  ) {
    this.expired = new Promise<never>((_, reject) => {
      this.timer = setTimeout(() => reject(new RenderTimeoutError(timeoutMs, this.stage())), Math.max(0, deadline - Date.now()));
    });
    this.expired.catch(() => undefined);
  }

  remaining(): number {
    return Math.max(1, this.deadline - Date.now());
  }

  /** Work run from now on also ends when `failed` rejects (the page crashed or its browser died). */
  failWith(failed: Promise<never> | undefined): void {
    this.failed = failed;
  }

  run<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    return Promise.race(this.failed ? [work, this.expired, this.failed] : [work, this.expired]);
  }

  /** The render's time is up now (a wait whose own deadline came first): the same error the deadline gives. */
  expire(): never {
    throw new RenderTimeoutError(this.timeoutMs, this.stage());
  }

  cancel(): void {
    clearTimeout(this.timer);
  }
}

/**
 * A render slot shared by a render's tries: each try holds it until its page is handed back, and
 * the render itself until it ends; the slot is given back when the last holder lets go.
 */
export class HeldSlot {
  private holders = 1;

  constructor(private readonly release: () => void) {}

  hold(): () => void {
    this.holders++;
    let dropped = false;
    return () => {
      if (dropped) return;
      dropped = true;
      this.drop();
    };
  }

  drop(): void {
    if (--this.holders === 0) this.release();
  }
}

/**
 * Hands a leased page back and frees the slot once it is back. A page that will not close must not
 * hold the render slot: the wait gives up after RELEASE_WAIT_MS (the lane is then dropped, not
 * reused). A reusable page's PDF does not wait for the teardown; a failed render answers once its
 * page is gone, so the slot it held is free by then.
 */
export async function handBack(lease: PageLease | undefined, reusable: boolean, releaseSlot: () => void): Promise<void> {
  const handedBack = lease ? settleWithin(lease.release(reusable), RELEASE_WAIT_MS) : Promise.resolve();
  void handedBack.then(releaseSlot);
  if (!reusable) await handedBack;
}
