// Identifiers and secrets: prefixed ids (`key_`, later `tpl_`, `doc_`, `bat_`) and the base62
// alphabet they share with API keys. Uses the CSPRNG only; no ordering or time in an id.

import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random base62 text: bytes of 248 or more are dropped so `% 62` has no bias. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(Math.ceil((length - out.length) * 1.1) + 4)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export type IdPrefix = 'key' | 'tpl' | 'doc' | 'bat' | 'rcp' | 'pre';

/** The pattern of an id: its prefix (any three letters when not given), '_', then 1 to 64 base62 characters. */
export function idPattern(prefix?: IdPrefix): RegExp {
  return new RegExp(`^${idPatternSource(prefix)}$`);
}

/**
 * Whether text is an id (of this prefix): the check every store makes before an id becomes part
 * of a file name, and the API makes on ids it is given.
 */
export function isId(text: string, prefix?: IdPrefix): boolean {
  return idPattern(prefix).test(text);
}

/** The pattern's source, to embed in a larger one (a cursor's). */
export function idPatternSource(prefix?: IdPrefix): string {
  return `${prefix ?? '[a-z]{3}'}_[A-Za-z0-9]{1,64}`;
}

/** A new id such as key_3kT9... (16 base62 characters, about 95 bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(16)}`;
}
