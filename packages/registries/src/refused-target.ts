import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';

/**
 * Which URLs a connector requests (docs/registries.md, "Which hosts are requested"). Packuments,
 * PyPI indexes and redirects name URLs the registry's publisher controls, so those URLs must not
 * carry credentials (a `user:pass@` would be sent as `Authorization: Basic`) nor reach the
 * link-local ranges where cloud metadata services answer (169.254.169.254, fd00:ec2::254).
 * Loopback and private addresses stay allowed: company mirrors live there.
 */
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** Why `address` (an IP literal) is never connected to, or null. */
export function refusedAddress(address: string): string | null {
  let ip = address.toLowerCase();
  // An IPv4-mapped IPv6 address reaches the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) ip = mapped[1]!;
  const family = isIP(ip);
  if (family === 4) {
    if (ip.startsWith('169.254.')) return `${address} is a link-local address`;
    if (ip === '0.0.0.0') return `${address} is the unspecified address`;
    return null;
  }
  if (family === 6) {
    if (/^fe[89ab][0-9a-f]?:/.test(ip)) return `${address} is a link-local address`;
    if (ip === '::') return `${address} is the unspecified address`;
    if (ip === 'fd00:ec2::254') return `${address} is a cloud metadata address`;
    if (/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(ip)) {
      const [high, low] = ip.slice(7).split(':').map((part) => parseInt(part, 16));
      return refusedAddress(`${high! >> 8}.${high! & 255}.${low! >> 8}.${low! & 255}`) === null ? null : `${address} is a link-local address`;
    }
    return null;
  }
  return 'not an IP address';
}

/** Why `url` is never requested, or null when it may be. */
export function refusedTarget(url: URL): string | null {
  if (url.username !== '' || url.password !== '') return 'the URL carries a user name or password';
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  if (isIP(host) !== 0) return refusedAddress(host);
  if (METADATA_NAMES.has(host)) return `${host} is a cloud metadata host name`;
  return null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Resolve = (hostname: string, options: LookupOptions & { all: true }, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * A `lookup` for `http.request`: a host name that resolves to a refused address fails the
 * connection (as `connect_failed`) instead of reaching it. `resolve` is `dns.lookup` but in tests.
 */
export function checkedLookupWith(resolve: Resolve) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.map((entry) => refusedAddress(entry.address)).find((reason) => reason !== null);
      if (refused !== undefined) {
        const failure: NodeJS.ErrnoException = new Error(`${hostname} resolves to a refused address: ${refused}`);
        failure.code = 'EREFUSEDADDRESS';
        return callback(failure, []);
      }
      if (addresses.length === 0) {
        const failure: NodeJS.ErrnoException = new Error(`${hostname} resolves to no address`);
        failure.code = 'ENOTFOUND';
        return callback(failure, []);
      }
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export const checkedLookup = checkedLookupWith((hostname, options, callback) => dnsLookup(hostname, options, (error, addresses) => callback(error, addresses)));
