import { validateHeaderValue } from 'node:http';
import { refusedTarget } from './refused-target.js';

/**
 * How Vigil talks to one registry: the public one or a company mirror (Artifactory, Nexus,
 * Verdaccio). Every field but `url` has a default; docs/registries.md lists them.
 */
export interface RegistrySettings {
  /** Base URL, e.g. `https://registry.npmjs.org` or `https://pypi.org`; a path prefix is kept. */
  url: string;
  /** Sent as `Authorization: Bearer <token>` to this registry's host only (tarballs elsewhere get none). */
  token?: string;
  /** Milliseconds to open the TCP (and TLS) connection. Default 10 000. */
  connectTimeoutMs?: number;
  /** Milliseconds for one whole answer, first byte to last. Default 60 000. */
  responseTimeoutMs?: number;
  /** Requests in flight at once to this registry. Default 8. */
  concurrency?: number;
  /** Token bucket: requests per second on average. Default 20. */
  requestsPerSecond?: number;
  /** Token bucket: requests allowed in a burst. Default 40. */
  burst?: number;
  /** Retries after the first attempt on 5xx, 429 and network faults (never on other 4xx). Default 3. */
  retries?: number;
  /** First backoff in milliseconds; doubles each retry, with full jitter. Default 250. */
  backoffBaseMs?: number;
  /** Longest single backoff, and the longest `Retry-After` honoured. Default 30 000. */
  backoffMaxMs?: number;
  /** Largest artifact (tarball, sdist, wheel) accepted, in bytes. Default 64 MiB, the server's artifact limit. */
  maxArtifactBytes?: number;
  /** Largest metadata document (packument, JSON API answer). Default 64 MiB. */
  maxMetadataBytes?: number;
  /** Metadata answers kept for `If-None-Match` revalidation. Default 1 000. */
  metadataCacheEntries?: number;
}

export type ResolvedRegistrySettings = Required<Omit<RegistrySettings, 'token'>> & { token: string | null };

export const DEFAULT_ARTIFACT_LIMIT_BYTES = 64 * 1024 * 1024;

export function resolveRegistrySettings(settings: RegistrySettings): ResolvedRegistrySettings {
  let base: URL;
  try {
    base = new URL(settings.url);
  } catch {
    throw new TypeError(`registry url: not a URL: ${JSON.stringify(settings.url)}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new TypeError(`registry url: http or https only, got ${base.protocol}`);
  // Paths are appended to the base: a query or fragment would end up in the middle of every URL.
  if (base.search !== '' || base.hash !== '' || /[?#]/.test(settings.url)) throw new TypeError(`registry url: no query or fragment allowed, got ${JSON.stringify(settings.url)}`);
  // Credentials go in `token`; a URL with a user name or password is never requested (registry-http).
  if (base.username !== '' || base.password !== '') throw new TypeError('registry url: no user name or password allowed; use token');
  const refused = refusedTarget(base);
  if (refused !== null) throw new TypeError(`registry url: never requested: ${refused}`);
  if (settings.token !== undefined) {
    try {
      validateHeaderValue('authorization', `Bearer ${settings.token}`);
    } catch {
      throw new TypeError('registry token: not usable in an HTTP header (a control character such as CR or LF, or a character above U+00FF)');
    }
  }
  const resolved: ResolvedRegistrySettings = {
    url: base.href.replace(/\/+$/, ''),
    token: settings.token ?? null,
    connectTimeoutMs: settings.connectTimeoutMs ?? 10_000,
    responseTimeoutMs: settings.responseTimeoutMs ?? 60_000,
    concurrency: settings.concurrency ?? 8,
    requestsPerSecond: settings.requestsPerSecond ?? 20,
    burst: settings.burst ?? 40,
    retries: settings.retries ?? 3,
    backoffBaseMs: settings.backoffBaseMs ?? 250,
    backoffMaxMs: settings.backoffMaxMs ?? 30_000,
    maxArtifactBytes: settings.maxArtifactBytes ?? DEFAULT_ARTIFACT_LIMIT_BYTES,
    maxMetadataBytes: settings.maxMetadataBytes ?? 64 * 1024 * 1024,
    metadataCacheEntries: settings.metadataCacheEntries ?? 1_000,
  };
  for (const [key, value] of Object.entries(resolved)) {
    if (key === 'url' || key === 'token') continue;
    const mayBeZero = key === 'retries' || key === 'metadataCacheEntries' || key === 'backoffBaseMs';
    // requestsPerSecond is a rate: any positive number, 0.5 is one request every two seconds.
    const fraction = key === 'requestsPerSecond';
    const valid = typeof value === 'number' && Number.isFinite(value) && (fraction ? value > 0 : value >= (mayBeZero ? 0 : 1) && Number.isInteger(value));
    if (!valid) {
      throw new TypeError(`registry ${key}: expected ${fraction ? 'a positive number' : mayBeZero ? 'an integer ≥ 0' : 'a positive integer'}, got ${JSON.stringify(value)}`);
    }
  }
  return resolved;
}
