// Refreshing what an event names without ever keeping a stale last word: at most one fetch per key
// runs at a time, and a call that comes while one runs asks for exactly one more after it (the
// running fetch may have been answered before the event; dropping the call left a batch "processing").

/** Runs `fetch(key)` for each call, one at a time per key; calls during a run fold into one more run. */
export function oneFetchAtATime(fetch: (key: string) => Promise<unknown>): (key: string) => void {
  const running = new Set<string>();
  const again = new Set<string>();
  const start = (key: string) => {
    running.add(key);
    fetch(key)
      .catch(() => undefined)
      .finally(() => {
        running.delete(key);
        if (again.delete(key)) start(key);
      });
  };
  return (key) => {
    if (running.has(key)) again.add(key);
    else start(key);
  };
}
