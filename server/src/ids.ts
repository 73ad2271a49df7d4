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

export type IdPrefix = 'key' | 'tpl' | 'doc' | 'bat';

/** A new id such as key_3kT9... (16 base62 characters, about 95 bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(16)}`;
}
