// A few at a time: work beyond the limit waits in line here, in the page, instead of holding one of
// the browser's six connections to the server. A screen of thumbnails that each wait for a PDF-tools
// slot on a busy server otherwise holds every connection, and the list request that pages the screen
// queues behind them (issue 40: the documents screen's "Older" waited past the test's 15 s at load 25).

export function turns(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    running -= 1;
    waiting.shift()?.();
  };
  /** Runs `work` when a turn is free; an abort while waiting leaves the line without running it. */
  return async function take<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (running >= limit) {
      await new Promise<void>((resolve, reject) => {
        const go = () => {
          signal?.removeEventListener('abort', leave);
          resolve();
        };
        const leave = () => {
          const at = waiting.indexOf(go);
          if (at >= 0) waiting.splice(at, 1);
          reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
        };
        if (signal?.aborted) return leave();
        signal?.addEventListener('abort', leave, { once: true });
        waiting.push(go);
      });
    }
    running += 1;
    try {
      return await work();
    } finally {
      release();
    }
  };
}
