// Name resolution for the network guard (page traffic through the egress proxy, url checks,
// webhooks). It uses c-ares (dns.Resolver), never dns.lookup: lookup runs getaddrinfo on libuv's
// thread pool, which file I/O (documents, fsyncs) also needs, so a page asking for slow names
// could stall every tenant's writes (issue 11). Every query has a time limit, answers are kept
// for their TTL (at most MAX_TTL_SECONDS) and concurrent questions for one name share one query.
// c-ares reads /etc/resolv.conf but not /etc/hosts; names that must be local go in ALLOW_HOSTS as
// addresses. What an address may be is address-policy.ts's question, not this module's.

import { Resolver as CaresResolver } from 'node:dns/promises';

/** Resolves a host name to its addresses (every caller of the network guard takes one). */
export type Resolver = (host: string) => Promise<string[]>;

/** Answers are reused for their TTL, but never longer than this: a small, fresh cache. */
export const MAX_TTL_SECONDS = 60;
/** Names kept at most; the oldest is dropped first. */
const MAX_ENTRIES = 1000;

export interface DnsResolverOptions {
  /** Longest wait for an answer (DNS_TIMEOUT_MS). */
  timeoutMs: number;
  /** Name servers as "ip" or "ip:port" (tests); default: the system's. */
  servers?: string[];
  now?: () => number;
}

/** The name did not resolve within the time limit. */
export class DnsTimeoutError extends Error {
  override readonly name = 'DnsTimeoutError';
}

/** A Resolver on c-ares with a time limit and a small TTL cache. */
export function createDnsResolver(options: DnsResolverOptions): Resolver {
  const now = options.now ?? Date.now;
  // c-ares's own timeout is per try and doubles on each retry: two tries within the limit.
  const resolver = new CaresResolver({ timeout: Math.max(50, Math.floor(options.timeoutMs / 3)), tries: 2 });
  if (options.servers) resolver.setServers(options.servers);
  const cache = new Map<string, { addresses: string[]; expires: number }>();
  const pending = new Map<string, Promise<string[]>>();

  const query = async (host: string): Promise<string[]> => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host, { ttl: true }), resolver.resolve6(host, { ttl: true })]);
    const records = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
    if (records.length === 0) {
      const failure = v4.status === 'rejected' ? v4.reason : v6.status === 'rejected' ? v6.reason : new Error(`${host} has no address`);
      throw failure as Error;
    }
    const ttl = Math.min(MAX_TTL_SECONDS, ...records.map((record) => record.ttl));
    const addresses = records.map((record) => record.address);
    if (ttl > 0) {
      if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
      cache.set(host, { addresses, expires: now() + ttl * 1000 });
    }
    return addresses;
  };

  return async (host) => {
    const cached = cache.get(host);
    if (cached && cached.expires > now()) return cached.addresses;
    cache.delete(host);
    let answer = pending.get(host);
    if (!answer) {
      answer = withTimeout(query(host), options.timeoutMs, host).finally(() => pending.delete(host));
      pending.set(host, answer);
    }
    return answer;
  };
}

/** The caller's wait is capped here; c-ares ends the query itself by its own per-try timeout. */
function withTimeout<T>(work: Promise<T>, ms: number, host: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  work.catch(() => undefined);
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new DnsTimeoutError(`${host} did not resolve within ${ms} ms`));
    }, ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
