// The language the desktop window's Chromium is started with. On Linux Chromium takes it from the
// environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext does); a POSIX locale ("C",
// "C.UTF-8", "POSIX", anything with an @modifier) can reach the page as navigator.language
// "en-US@posix", a tag Intl refuses (issue #30: the admin window stayed white). Such a locale is
// replaced by the nearest valid tag through --lang; a usable one is left to Chromium.

import { safeLocale } from '../ui/src/lib/locale-tag.ts';

/** The --lang value the window needs under this environment, or undefined when Chromium's own choice is safe. */
export function windowLanguage(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== 'linux') return undefined;
  const raw = env.LANGUAGE?.split(':').find(Boolean) || env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  const isPosix = raw === '' || /^(c|posix)([.@]|$)/i.test(raw) || raw.includes('@');
  return isPosix ? safeLocale(raw) : undefined;
}
