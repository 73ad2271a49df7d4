// API key and admin token secrets: their form, generation and hashing. Only hashes are stored;
// lookups go by the hash, so no secret is ever compared by prefix. Knows no files and no HTTP.

import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../ids.ts';

export const API_KEY_PREFIX = 'sk_live_';
/** 43 base62 characters carry 256 bits, like 32 random bytes. */
const SECRET_LENGTH = 43;
const API_KEY_FORM = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${SECRET_LENGTH}}$`);

/** A new API key: sk_live_ followed by 256 random bits in base62. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBase62(SECRET_LENGTH);
}

/** A new admin token; its form (adm_...) can never be taken for an API key. */
export function generateAdminToken(): string {
  return `adm_${randomBase62(SECRET_LENGTH)}`;
}

/** Whether text has the exact form of an API key (cheap check before hashing). */
export function isApiKeyForm(text: string): boolean {
  return API_KEY_FORM.test(text);
}

/** The stored form of a secret: sha256, hex. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Compares a presented secret with a stored hash in constant time. */
export function matchesHash(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
