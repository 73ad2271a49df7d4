// The waits a render asks for after loading (options.wait_for, wait_for_function) and evaluating
// in the page, each on the page's clock: on a virtual clock the page's timers run while the
// evaluation is pending. Apart from cdp-page.ts, which loads and prints, as a phase of its own.

import type { Protocol } from 'puppeteer-core';
import { RenderInputError } from './errors.ts';
import type { CdpSession } from './cdp-session.ts';

/** Resolves with the work, the page's clock running meanwhile when it is virtual (cdp-page.ts onClock). */
export type OnPageClock = <T>(work: Promise<T>) => Promise<T>;

const WAIT_FOR_SELECTOR = `(selector) => new Promise((resolve, reject) => {
  const found = () => { try { return document.querySelector(selector) !== null; } catch (error) { reject(new SyntaxError('invalid selector')); return true; } };
  if (found()) return resolve(true);
  const observer = new MutationObserver(() => { if (found()) { observer.disconnect(); resolve(true); } });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})`;

const WAIT_FOR_FUNCTION_POLL_MS = 100;

/** Evaluates an expression in the page (a promise is awaited) for its JSON value, on the page's clock. */
export function evaluateOnClock(session: CdpSession, onClock: OnPageClock, expression: string): Promise<Protocol.Runtime.EvaluateResponse> {
  const evaluated = session.send('Runtime.evaluate', {
    expression,
    awaitPromise: true,
    returnByValue: true,
  }) as Promise<Protocol.Runtime.EvaluateResponse>;
  return onClock(evaluated);
}

/** Resolves when the selector matches; throws RenderInputError for an invalid selector. */
export async function untilSelectorMatches(session: CdpSession, onClock: OnPageClock, selector: string): Promise<void> {
  const result = await evaluateOnClock(session, onClock, `(${WAIT_FOR_SELECTOR})(${JSON.stringify(selector)})`);
  if (result.exceptionDetails) {
    throw new RenderInputError('options.wait_for', `options.wait_for is not a valid CSS selector: ${selector}`);
  }
}

/**
 * Resolves when the expression is truthy (a promise is awaited), checked every 100 ms of the
 * page's clock (`wait`: on a virtual clock its timers run between checks) until `deadline` (epoch
 * ms, wall clock). Throws RenderInputError when it does not compile or throws.
 */
export async function untilFunctionTruthy(
  session: CdpSession,
  onClock: OnPageClock,
  wait: (ms: number) => Promise<void>,
  expression: string,
  deadline: number,
): Promise<boolean> {
  while (Date.now() < deadline) {
    // A promise the expression awaits may need the page's timers: on a virtual clock they run meanwhile.
    const result = await evaluateOnClock(session, onClock, `(async () => Boolean(await (${expression}\n)))()`);
    if (result.exceptionDetails) {
      // "SyntaxError: Unexpected token" as "threw a SyntaxError (Unexpected token)": no stack-like text in an API error.
      const first = result.exceptionDetails.exception?.description?.split('\n')[0] ?? result.exceptionDetails.text;
      const [, name = 'error', message = first] = /^(\w+): (.*)$/.exec(first) ?? [];
      throw new RenderInputError('options.wait_for_function', `options.wait_for_function threw a ${name} in the page (${message})`);
    }
    if (result.result.value === true) return true;
    await wait(WAIT_FOR_FUNCTION_POLL_MS);
  }
  // Never true by the deadline: the caller must not print (it once went on to print, and a loaded
  // machine's budget then ran out "while printing", or not at all).
  return false;
}
