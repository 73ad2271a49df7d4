// Checks a caller-supplied URL before anything is fetched: http(s) only, and every address its
// host resolves to must be allowed by the AddressPolicy. The browser's own connections are
// checked again where they are made (egress-proxy.ts), so this is the early, clear refusal.
// checkDestination is the one decision both share: resolve a host, check every address.

import ipaddr from 'ipaddr.js';
import type { AddressPolicy } from './address-policy.ts';
import { createDnsResolver, type Resolver } from './dns-resolver.ts';

export class BlockedUrlError extends Error {
  override readonly name = 'BlockedUrlError';
  /** The exact reason, for the log only: callers get a generic sentence. */
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** The host could not be resolved: a navigation error, not a guard refusal. */
export class UnresolvableHostError extends Error {
  override readonly name = 'UnresolvableHostError';
}

/** DNS_TIMEOUT_MS's default; app.ts builds the configured resolver, this one serves callers given none. */
const DEFAULT_DNS_TIMEOUT_MS = 5000;

/** c-ares with a time limit and a TTL cache (dns-resolver.ts): never dns.lookup on libuv's thread pool. */
export const systemResolver: Resolver = createDnsResolver({ timeoutMs: DEFAULT_DNS_TIMEOUT_MS });

/** A destination whose every address passed the policy: connect to these addresses, never to the name. */
export interface CheckedDestination {
  host: string;
  port: number;
  addresses: string[];
}

/** Lower case, no brackets around IPv6, no trailing dots: the form rules and resolvers see. */
export function normalizeHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
}

/**
 * Resolves a host (an IP literal is its own answer) and checks every address with the policy.
 * Throws BlockedUrlError when any address is refused, UnresolvableHostError when there is none.
 */
export async function checkDestination(hostname: string, port: number, policy: AddressPolicy, resolve: Resolver = systemResolver): Promise<CheckedDestination> {
  const host = normalizeHost(hostname);
  let addresses: string[];
  if (ipaddr.isValid(host) && (host.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(host))) {
    addresses = [host];
  } else if (host === 'localhost' || host.endsWith('.localhost')) {
    // RFC 6761: these names are loopback whatever a resolver says (Chromium treats them so too).
    addresses = ['127.0.0.1', '::1'];
  } else if (host.endsWith('.invalid') || host === 'invalid' || !/^[a-z0-9_.-]+$/.test(host)) {
    // RFC 6761 again; and nothing that is not a plain DNS name reaches the system resolver.
    throw new UnresolvableHostError(`${host} does not resolve`);
  } else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      throw new UnresolvableHostError(`${host} does not resolve: ${(error as Error).message}`);
    }
    if (addresses.length === 0) throw new UnresolvableHostError(`${host} does not resolve`);
  }
  for (const address of addresses) {
    const decision = policy.decide({ host, address, port });
    if (!decision.allowed) throw new BlockedUrlError(`${host}:${port} resolves to ${address} (${decision.reason}), which is not allowed`);
  }
  return { host, port, addresses };
}

/** Parses a URL and throws BlockedUrlError unless its scheme is http(s). */
export function parseHttpUrl(raw: string): URL {
  const url = URL.parse(raw);
  if (!url) throw new BlockedUrlError(`not a valid absolute URL: ${raw.slice(0, 200)}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BlockedUrlError(`scheme ${url.protocol} is not allowed`);
  }
  return url;
}

/** The port a URL connects to. */
export function portOf(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80));
}

/** Throws BlockedUrlError unless the URL is http(s) and its host resolves only to allowed addresses. */
export async function checkUrl(raw: string, policy: AddressPolicy, resolve: Resolver = systemResolver): Promise<URL> {
  // The WHATWG parser has already turned decimal, octal and hex IPv4 spellings into dotted form.
  const url = parseHttpUrl(raw);
  try {
    await checkDestination(url.hostname, portOf(url), policy, resolve);
  } catch (error) {
    // Unresolvable names fail later as navigation errors, not as a guard refusal.
    if (error instanceof UnresolvableHostError) return url;
    throw error;
  }
  return url;
}
