// Turns for the month's allowance: renders that must take it in a fixed order (an in-call batch's
// items) reserve one after another while their rendering still overlaps.

/**
 * One render's place in a queue for the month's allowance: it reserves once `ready` resolves and
 * calls `done` when its reservation is held or refused, so the next one may go (reserveTurns).
 */
export interface ReserveTurn {
  ready: Promise<void>;
  done(): void;
}

/**
 * Turns for `count` renders in order: the second reserves after the first, and so on. Rendering
 * still overlaps; only the allowance is taken in order, so a batch past its allowance keeps its
 * first items and fails its last, whichever render happens to start first.
 */
export function reserveTurns(count: number): ReserveTurn[] {
  const turns: ReserveTurn[] = [];
  let previous: Promise<void> = Promise.resolve();
  for (let i = 0; i < count; i++) {
    let done = () => {};
    const next = new Promise<void>((resolve) => {
      done = resolve;
    });
    turns.push({ ready: previous, done: () => done() });
    // Every earlier turn, not only the last: an item that ends before its turn came (a revoked
    // key) must not let the ones after it overtake the ones before it.
    previous = Promise.all([previous, next]).then(() => undefined);
  }
  return turns;
}
