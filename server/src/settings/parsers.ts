// How a setting is declared and parsed: the pieces every settings group (settings/*.ts) is built
// from. Nothing here reads the environment; config.ts does, with the merged table.

export type Parser<T> = (raw: string, name: string) => T;

export interface Setting<T> {
  readonly env: string;
  readonly default: T;
  readonly help: string;
  readonly parse: Parser<T>;
}

export class ConfigError extends Error {}

export function setting<T>(env: string, defaultValue: T, parse: Parser<T>, help: string): Setting<T> {
  return { env, default: defaultValue, parse, help };
}

export const text: Parser<string> = (raw) => raw;

export function integer(min: number, max: number): Parser<number> {
  return (raw, name) => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
    }
    return value;
  };
}

export const boolean: Parser<boolean> = (raw, name) => {
  const value = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
};

// The admin token must not be mistaken for an API key, and must not be guessable.
export const adminToken: Parser<string> = (raw, name) => {
  if (raw.length < 16 || /\s/.test(raw)) throw new ConfigError(`${name} must be at least 16 characters with no spaces`);
  if (raw.startsWith('sk_')) throw new ConfigError(`${name} must not start with sk_ (that is the API key form)`);
  return raw;
};

export const list: Parser<readonly string[]> = (raw) =>
  raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);

/**
 * TRUST_PROXY: which peers' X-Forwarded-For is believed (express's "trust proxy"). false: none,
 * the socket's address counts; a number: that many proxy hops in front of us; else a comma list
 * of addresses or CIDRs of the proxies.
 */
export type TrustProxy = false | number | readonly string[];

export const trustProxy: Parser<TrustProxy> = (raw, name) => {
  const value = raw.trim().toLowerCase();
  if (['', 'none', 'false', 'off', '0'].includes(value)) return false;
  if (/^\d+$/.test(value)) return integer(1, 32)(value, name);
  const entries = list(value, name);
  for (const entry of entries) {
    if (!/^[0-9a-f.:]+(\/\d{1,3})?$/.test(entry))
      throw new ConfigError(`${name} must be none, a hop count (1 to 32) or a comma list of proxy addresses or CIDRs (got "${raw}")`);
  }
  return entries;
};
