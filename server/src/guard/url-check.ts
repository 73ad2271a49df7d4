// Checks a caller-supplied URL before anything is fetched: http(s) only, and every address its
// host resolves to must be allowed by the AddressPolicy. The browser's own connections are
// checked again where they are made (see egress proxy), so this is the early, clear refusal.

import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { AddressPolicy } from './address-policy.ts';

export class BlockedUrlError extends Error {
  override readonly name = 'BlockedUrlError';
  /** The exact reason, for the log only: callers get a generic sentence. */
  constructor(readonly reason: string) {
    super(reason);
  }
}

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** Throws BlockedUrlError unless the URL is http(s) and its host resolves only to allowed addresses. */
export async function checkUrl(raw: string, policy: AddressPolicy, resolve: Resolver = systemResolver): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedUrlError(`not a valid absolute URL: ${raw.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BlockedUrlError(`scheme ${url.protocol} is not allowed`);
  }
  // The WHATWG parser has already turned decimal, octal and hex IPv4 spellings into dotted form.
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      // Unresolvable names fail later as navigation errors, not as a guard refusal.
      return url;
    }
  }
  const denied = addresses.find((address) => !policy.allows({ host, address, port }));
  if (denied !== undefined) throw new BlockedUrlError(`${host}:${port} resolves to ${denied}, which is not allowed`);
  return url;
}
