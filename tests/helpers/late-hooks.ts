// node:test does not stop a body that timed out: one still starting its server goes on to start
// Chromium (and LibreOffice, a canary...) after its test ended, and a t.after() registered then
// never runs, so the file never ends. Seen with four office files at once at load ~25.

/** The test's context, but a hook registered once the test has ended (its signal aborted) runs at once. */
export function closingLate<T extends { after(fn: () => Promise<void>): void }>(t: T): T {
  const signal = (t as { signal?: AbortSignal }).signal;
  if (!signal) return t;
  return new Proxy(t, {
    get(target, property) {
      if (property === 'after')
        return (fn: () => Promise<void>) =>
          signal.aborted
            ? void Promise.resolve()
                .then(fn)
                .catch(() => undefined)
            : target.after(fn);
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
