import { isIP } from 'node:net';

const MAPPED_V4_RE = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;
const MAPPED_V4_HEX_RE = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * One spelling per address, so an allowlist entry matches however the socket reports it: an
 * IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, what a dual-stack listener sees) becomes the IPv4
 * address, and IPv6 is lowercased and compressed (`2001:DB8:0::1` → `2001:db8::1`). Anything that
 * is not an IP address is returned unchanged and so matches only itself.
 */
export function normalizeIp(ip: string): string {
  const mapped = MAPPED_V4_RE.exec(ip);
  if (mapped && isIP(mapped[1]!) === 4) return mapped[1]!;
  if (isIP(ip) !== 6) return ip;
  // WHATWG URL serialises IPv6 hosts canonically (RFC 5952).
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const hex = MAPPED_V4_HEX_RE.exec(canonical);
  if (!hex) return canonical;
  const high = Number.parseInt(hex[1]!, 16);
  const low = Number.parseInt(hex[2]!, 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** Whether `ip` is one of `allowed` (exact addresses, compared in normalized form). */
export function isIpAllowed(ip: string, allowed: readonly string[]): boolean {
  const wanted = normalizeIp(ip);
  return allowed.some((entry) => normalizeIp(entry) === wanted);
}
