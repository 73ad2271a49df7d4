// The locale the window formats numbers and dates in: the browser's language when it is a valid
// BCP 47 tag, else the nearest one that is. A POSIX locale leaks through as "en-US@posix" (the npm
// Chromium under LANG=C.UTF-8), which Intl refuses with a RangeError; uPlot builds
// `new Intl.NumberFormat(navigator.language)` when its module loads, so main.tsx imports this
// module first and it puts the safe tag in navigator.language before anything reads it.

import { safeLocale } from './locale-tag.ts';

/** The locale every Intl formatter of the window uses. */
export const LOCALE = typeof navigator === 'undefined' ? 'en-US' : safeLocale(navigator.language);

// Libraries that read navigator.language themselves (uPlot) get the safe tag too.
if (typeof navigator !== 'undefined' && navigator.language !== LOCALE) {
  const languages = Array.from(new Set([LOCALE, ...(navigator.languages ?? []).map(safeLocale)]));
  Object.defineProperty(navigator, 'language', { configurable: true, get: () => LOCALE });
  Object.defineProperty(navigator, 'languages', { configurable: true, get: () => Object.freeze(languages) });
}
