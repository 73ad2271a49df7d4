// A valid BCP 47 language tag from what an environment gives: pure, so the window (locale.ts)
// and the desktop shell (electron/window-language.ts) clean a POSIX locale the same way.

/** The nearest valid BCP 47 tag to `tag` ("en-US@posix" → "en-US", "de_DE.UTF-8" → "de-DE", "C" → "en-US"). */
export function safeLocale(tag: string | undefined | null): string {
  const candidates = [tag ?? '', (tag ?? '').replace(/[.@].*$/, '').replace(/_/g, '-')];
  for (const candidate of candidates) {
    if (!candidate || /^(c|posix)$/i.test(candidate)) continue;
    try {
      const [canonical] = Intl.getCanonicalLocales(candidate);
      if (canonical) {
        new Intl.NumberFormat(canonical);
        return canonical;
      }
    } catch {
      // Not a tag Intl takes: try the next, cleaned-up candidate.
    }
  }
  return 'en-US';
}
