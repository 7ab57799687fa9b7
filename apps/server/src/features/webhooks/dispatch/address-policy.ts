import { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook may reach (docs/webhooks.md, "Which URLs are accepted"): public
 * unicast only. Loopback, private (RFC 1918, fc00::/7), link-local (169.254/16, fe80::/10, where
 * cloud metadata services answer), CGNAT, unspecified, multicast, broadcast, reserved and
 * documentation ranges, and the IPv6 forms that embed an IPv4 address (mapped, 6to4, NAT64,
 * Teredo) are refused, so an endpoint URL cannot point Vigil's workers at its own network.
 * Classification is ipaddr.js's (its `range()` names), not a hand-kept list of prefixes.
 */

/** Host names refused whatever they resolve to: cloud metadata services and the loopback names. */
const REFUSED_NAMES = new Set(['localhost', 'metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** Why `address` may not be reached (ipaddr.js's range name), or null for a public unicast address. */
export function refusedAddressRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  let parsed = ipaddr.parse(address);
  // An IPv4-mapped IPv6 address reaches the IPv4 address it carries: judge that one.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  return range === 'unicast' ? null : range;
}

/**
 * The words refusals use for each ipaddr.js range name, article included (docs/webhooks.md, "Which
 * URLs are accepted", lists them): a client reads `link-local`, never `linkLocal`.
 */
export const RANGE_WORDS: Readonly<Record<string, string>> = {
  invalid: 'an invalid address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a CGNAT address',
  private: 'a private address',
  reserved: 'a reserved address',
  as112: 'an AS112 address',
  as112v6: 'an AS112 address',
  amt: 'an AMT address',
  uniqueLocal: 'a unique-local address',
  ipv4Mapped: 'an IPv4-mapped address',
  deprecatedSiteLocal: 'a site-local address',
  discard: 'a discard-only address',
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
  benchmarking: 'a benchmarking address',
  deprecatedOrchid: 'an ORCHID address',
  orchid2: 'an ORCHIDv2 address',
  droneRemoteIdProtocolEntityTags: 'a DRIP address',
  segmentRouting: 'a segment-routing address',
};

/** The refusal's words for an ipaddr.js range name; a name a later ipaddr.js adds reads as non-public. */
export function rangeWords(range: string): string {
  return Object.hasOwn(RANGE_WORDS, range) ? RANGE_WORDS[range]! : 'a non-public address';
}

/** A host name refused by name (before any resolution), or null. */
export function refusedHostName(host: string): string | null {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (REFUSED_NAMES.has(name) || name.endsWith('.localhost')) return `${name} is a reserved local or metadata host name`;
  return null;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address (the system resolver by default; tests hand in their own). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

/** `[::1]` in a URL's host is `::1` to the resolver and the classifier. */
export function bareHost(urlHostname: string): string {
  return urlHostname.startsWith('[') && urlHostname.endsWith(']') ? urlHostname.slice(1, -1) : urlHostname;
}

export class AddressRefusedError extends Error {
  override name = 'AddressRefusedError';
}

/**
 * Every address `host` stands for, each checked: throws AddressRefusedError naming the first refused
 * one. An IP literal is checked as it is; a name is refused by name or resolved once and every
 * address it resolves to must pass (one private address among public ones is refused: a
 * connection could land on it).
 */
export async function checkedAddresses(host: string, resolver: HostResolver): Promise<ResolvedAddress[]> {
  const bare = bareHost(host);
  const family = isIP(bare);
  if (family !== 0) {
    const range = refusedAddressRange(bare);
    if (range !== null) throw new AddressRefusedError(`${bare} is ${rangeWords(range)}, which webhooks may not reach`);
    return [{ address: bare, family }];
  }
  const byName = refusedHostName(bare);
  if (byName !== null) throw new AddressRefusedError(byName);
  const addresses = await resolver(bare);
  if (addresses.length === 0) throw new AddressRefusedError(`${bare} resolves to no address`);
  for (const a of addresses) {
    const range = refusedAddressRange(a.address);
    if (range !== null) throw new AddressRefusedError(`${bare} resolves to ${a.address}, ${rangeWords(range)}, which webhooks may not reach`);
  }
  return addresses;
}
