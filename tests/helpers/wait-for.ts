// Waiting on an event the test cannot subscribe to (a slot taken, a process gone, a file written):
// the condition is checked every few milliseconds and the wait ends as soon as it holds, never after
// a fixed sleep. The deadline is wall-clock time (not a count of tries) and only a safety net: set
// it for a loaded machine, never as a timing assertion.

import { existsSync } from 'node:fs';

/** Resolves once check() is true; rejects naming `what` if it is not within timeoutMs. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting after ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves once the file exists (a hot folder's output, say); rejects after timeoutMs. */
export function appears(file: string, timeoutMs = 60_000): Promise<void> {
  return waitFor(() => existsSync(file), `${file} to appear`, timeoutMs);
}
