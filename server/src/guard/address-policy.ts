// Decides whether an IP address may be connected to: public unicast only, unless the operator's
// ALLOW_HOSTS opens it; DENY_HOSTS closes more. Knows nothing of URLs, DNS or sockets.

import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

// Ranges ipaddr.js files under 'unicast' that are still not the public internet, by the class
// named in the log when an address is refused.
const EXTRA_BLOCKED: ReadonlyArray<readonly [cidr: string, label: string]> = [
  ['192.0.0.0/24', 'reserved'], // IETF protocol assignments (also 192.0.0.192, an Oracle Cloud metadata address)
  ['192.0.2.0/24', 'documentation'], // TEST-NET-1
  ['198.51.100.0/24', 'documentation'], // TEST-NET-2
  ['203.0.113.0/24', 'documentation'], // TEST-NET-3
  ['198.18.0.0/15', 'benchmarking'],
  ['192.88.99.0/24', 'reserved'], // former 6to4 relay anycast
  ['240.0.0.0/4', 'reserved'],
  ['100.64.0.0/10', 'carrierGradeNat'], // also covers 100.100.100.200, Alibaba Cloud metadata
  ['168.63.129.16/32', 'metadata'], // Azure's platform endpoint: a public-looking address every Azure VM reaches
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'], // RFC 9637
  ['2001::/23', 'reserved'], // IETF protocol assignments (Teredo, benchmarking, ORCHID)
  ['64:ff9b:1::/48', 'rfc6052'], // local-use NAT64 (RFC 8215): translates into a private network
  ['5f00::/16', 'reserved'], // SRv6 SIDs
  ['fec0::/10', 'deprecatedSiteLocal'],
];
const EXTRA_BLOCKED_CIDRS = EXTRA_BLOCKED.map(([cidr, label]) => [ipaddr.parseCIDR(cidr), label] as const);

/** Global unicast IPv6 (RFC 4291): everything outside it is reserved, whatever ipaddr.js calls it. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** One entry of ALLOW_HOSTS / DENY_HOSTS. */
export interface HostRule {
  readonly text: string;
  readonly host?: string;
  readonly cidr?: [Address, number];
  readonly port?: number;
}

/** Parses "host", "host:port", "[v6]:port", "CIDR" or an IP; throws with the entry named. */
export function parseHostRule(text: string): HostRule {
  const entry = text.trim().toLowerCase();
  if (entry.includes('/')) {
    try {
      return { text, cidr: ipaddr.parseCIDR(entry) };
    } catch {
      throw new Error(`"${text}" is not a valid CIDR`);
    }
  }
  let host = entry;
  let port: number | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2] ? Number(bracketed[2]) : undefined;
  } else if (!ipaddr.IPv6.isValid(entry) && entry.includes(':')) {
    const at = entry.lastIndexOf(':');
    host = entry.slice(0, at);
    port = Number(entry.slice(at + 1));
  }
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) {
    throw new Error(`"${text}" has an invalid port`);
  }
  if (!host) throw new Error(`"${text}" names no host`);
  host = host.replace(/\.$/, '');
  if (ipaddr.isValid(host)) {
    const address = normalize(ipaddr.parse(host));
    return { text, cidr: [address, address.kind() === 'ipv4' ? 32 : 128], port };
  }
  return { text, host, port };
}

export interface Destination {
  /** The host name as requested (lower case, no trailing dot), or the address text. */
  host: string;
  address: string;
  port: number;
}

export interface AddressPolicy {
  /** Whether this destination may be connected to. */
  allows(destination: Destination): boolean;
  /** The same decision with its reason, for the log ("loopback", "DENY_HOSTS 10.0.0.0/8", ...). */
  decide(destination: Destination): { allowed: boolean; reason: string };
}

/** Builds the policy from ALLOW_HOSTS and DENY_HOSTS entries. */
export function createAddressPolicy(allowHosts: readonly string[], denyHosts: readonly string[]): AddressPolicy {
  const allow = allowHosts.map(parseHostRule);
  const deny = denyHosts.map(parseHostRule);
  const decide = (destination: Destination) => {
    const denied = deny.find((rule) => matches(rule, destination));
    if (denied) return { allowed: false, reason: `DENY_HOSTS ${denied.text}` };
    const allowed = allow.find((rule) => matches(rule, destination));
    if (allowed) return { allowed: true, reason: `ALLOW_HOSTS ${allowed.text}` };
    const kind = addressClass(destination.address);
    return { allowed: kind === 'public', reason: kind };
  };
  return { decide, allows: (destination) => decide(destination).allowed };
}

/** True only for a globally routable unicast address (after unwrapping IPv4-mapped forms). */
export function isPublicAddress(text: string): boolean {
  return addressClass(text) === 'public';
}

/**
 * 'public' for a globally routable unicast address; otherwise the class that makes it private
 * ('loopback', 'private', 'linkLocal', 'carrierGradeNat', 'metadata', 'reserved', ...), or
 * 'invalid' for text that is not an IP address.
 */
export function addressClass(text: string): string {
  if (!ipaddr.isValid(text)) return 'invalid';
  const address = normalize(ipaddr.parse(text));
  const extra = EXTRA_BLOCKED_CIDRS.find(([[range, bits]]) => range.kind() === address.kind() && address.match(range, bits));
  if (extra) return extra[1];
  // NAT64 and 6to4 reach whatever IPv4 address they carry: judge that one.
  const embedded = address.kind() === 'ipv6' ? embeddedIPv4(address as ipaddr.IPv6) : undefined;
  if (embedded) {
    const inner = addressClass(embedded.toString());
    return inner === 'public' ? inner : `${inner} (inside ${address.toString()})`;
  }
  const range = address.range();
  if (range !== 'unicast') return range;
  if (address.kind() === 'ipv6' && !address.match(GLOBAL_UNICAST_V6)) return 'reserved';
  return 'public';
}

function matches(rule: HostRule, destination: Destination): boolean {
  if (rule.port !== undefined && rule.port !== destination.port) return false;
  if (rule.host !== undefined) return rule.host === destination.host;
  if (!rule.cidr || !ipaddr.isValid(destination.address)) return false;
  const address = normalize(ipaddr.parse(destination.address));
  const [range, bits] = rule.cidr;
  return address.kind() === range.kind() && address.match(range, bits);
}

/** IPv4-mapped and IPv4-compatible IPv6 forms are treated as the IPv4 address they carry. */
function normalize(address: Address): Address {
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
    const parts = v6.parts;
    // ::a.b.c.d (deprecated IPv4-compatible form), except :: and ::1 themselves.
    if (parts.slice(0, 6).every((part) => part === 0) && (parts[6]! !== 0 || parts[7]! > 1)) {
      return ipaddr.fromByteArray(v6.toByteArray().slice(12)) as ipaddr.IPv4;
    }
  }
  return address;
}

const WELL_KNOWN_NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/** The IPv4 address inside NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  // Only the well-known /96 prefix: the local-use /48 is refused outright (EXTRA_BLOCKED).
  if (address.match(WELL_KNOWN_NAT64)) return ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4;
  if (address.range() === '6to4') return ipaddr.fromByteArray(bytes.slice(2, 6)) as ipaddr.IPv4;
  return undefined;
}
