// Waiting on clean-up that may never finish (a page that will not close) without letting it hold
// a render slot or a lane.

/** Waits for work to settle, or ms at most; never rejects. */
export function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    work.then(done, done);
  });
}
