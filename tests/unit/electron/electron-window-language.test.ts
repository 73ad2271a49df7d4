// The language the desktop window starts with (electron/window-language.ts) and the tag cleaning
// it shares with the admin window (ui/src/lib/locale-tag.ts): a POSIX locale never reaches a page
// as a tag Intl refuses (issue #30).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { safeLocale } from '../../../ui/src/lib/locale-tag.ts';
import { windowLanguage } from '../../../electron/window-language.ts';

test('safeLocale turns what an environment or a browser says into a tag Intl takes', () => {
  assert.throws(() => new Intl.NumberFormat('en-US@posix'), RangeError, 'the tag the npm Chromium reports under LANG=C.UTF-8');
  const cases: [string | undefined, string][] = [
    ['en-US@posix', 'en-US'],
    ['en-US', 'en-US'],
    ['de_DE.UTF-8', 'de-DE'],
    ['fr_CA@euro', 'fr-CA'],
    ['pt-br', 'pt-BR'],
    ['C.UTF-8', 'en-US'],
    ['C', 'en-US'],
    ['POSIX', 'en-US'],
    ['', 'en-US'],
    [undefined, 'en-US'],
    ['not a tag!', 'en-US'],
  ];
  for (const [given, expected] of cases) {
    const tag = safeLocale(given);
    assert.equal(tag, expected, `safeLocale(${JSON.stringify(given)})`);
    assert.doesNotThrow(() => new Intl.NumberFormat(tag));
  }
});

test('the desktop window gets --lang only when Linux would hand it a POSIX locale', () => {
  assert.equal(windowLanguage({ LANG: 'C.UTF-8' }, 'linux'), 'en-US');
  assert.equal(windowLanguage({ LANG: 'POSIX' }, 'linux'), 'en-US');
  assert.equal(windowLanguage({}, 'linux'), 'en-US', 'no locale at all is the C locale');
  assert.equal(windowLanguage({ LANG: 'de_DE.UTF-8', LC_ALL: 'C' }, 'linux'), 'en-US', 'LC_ALL wins over LANG');
  assert.equal(windowLanguage({ LANG: 'sr_RS@latin' }, 'linux'), 'sr-RS', 'an @modifier is dropped');
  assert.equal(windowLanguage({ LANG: 'de_DE.UTF-8' }, 'linux'), undefined, "a usable locale is Chromium's to read");
  assert.equal(windowLanguage({ LANG: 'C.UTF-8', LANGUAGE: 'fr_FR:en' }, 'linux'), undefined, 'LANGUAGE comes first, as in gettext');
  assert.equal(windowLanguage({ LANG: 'C.UTF-8' }, 'darwin'), undefined, 'macOS and Windows take the language from the system settings');
});
