import type { CachedMetadata, MetadataCache } from './metadata-cache.js';
import type { HttpResult, RegistryHttp } from './registry-http.js';
import type { RegistryFailure } from './registry-states.js';

export type MetadataResult =
  | { state: 'ok'; document: unknown; etag: string | null; not_modified: boolean }
  | RegistryFailure;

/**
 * A JSON metadata document, revalidated with `If-None-Match` when an earlier answer carried an
 * ETag: a 304 answers from the cache and costs the registry no body.
 */
export async function fetchMetadata(
  http: RegistryHttp,
  cache: MetadataCache,
  url: string,
  accept: string,
  options: { requireType?: string; revalidate?: CachedMetadata } = {},
): Promise<MetadataResult> {
  const key = `${accept} ${url}`;
  // A caller that keeps its own last answer (a watcher's stored ETag) revalidates that one instead of the cache's.
  const remembered = options.revalidate ?? cache.get(key);
  // A cache that answers something else (a Promise from an async store) is treated as a miss.
  const cached = remembered !== null && typeof remembered === 'object' && typeof remembered.etag === 'string' && validEtag(remembered.etag) ? remembered : undefined;
  const headers: Record<string, string> = { accept };
  if (cached !== undefined) headers['if-none-match'] = cached.etag;
  const result = await http.get(url, { headers, maxBytes: http.settings.maxMetadataBytes });
  if (result.kind === 'response' && result.status === 304 && cached !== undefined) {
    http.counters.notModified += 1;
    return { state: 'ok', document: cached.document, etag: cached.etag, not_modified: true };
  }
  const failure = failureOf(result, url);
  if (failure !== null) return failure;
  const response = result as HttpResult & { kind: 'response' };
  if (options.requireType !== undefined) {
    // Content negotiation decides the format (PEP 691): a body in another media type is not the asked-for API.
    const type = String(response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== options.requireType) return { state: 'invalid_metadata', detail: `${url}: answered as ${JSON.stringify(type)}, not ${options.requireType}` };
  }
  let document: unknown;
  try {
    document = JSON.parse(response.body.toString('utf8'));
  } catch {
    return { state: 'invalid_metadata', detail: `${url}: the answer is not JSON` };
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return { state: 'invalid_metadata', detail: `${url}: the answer is not a JSON object` };
  const etag = typeof response.headers.etag === 'string' ? response.headers.etag : null;
  if (etag !== null) cache.set(key, { etag, document });
  return { state: 'ok', document, etag, not_modified: false };
}

/** The state for an answer that is not a usable 2xx, or null when it is one. */
export function failureOf(result: HttpResult, url: string): RegistryFailure | null {
  if (result.kind === 'unavailable') return { state: 'registry_unavailable', reason: result.reason, attempts: result.attempts, detail: result.detail };
  if (result.kind === 'too_large') {
    return {
      state: 'too_large',
      limit_bytes: result.limitBytes,
      declared_bytes: result.declaredBytes,
      detail: `${url}: larger than the ${result.limitBytes}-byte limit${result.declaredBytes === null ? '' : ` (declared ${result.declaredBytes})`}`,
    };
  }
  if (result.status === 404 || result.status === 410) return { state: 'not_found', detail: `${url}: ${result.status}` };
  if (result.status < 200 || result.status >= 300) return { state: 'registry_refused', status: result.status, detail: `${url}: ${result.status}` };
  return null;
}

/** An ETag usable as an `If-None-Match` header value. */
function validEtag(etag: string): boolean {
  return etag !== '' && !/[^\t\x20-\x7e\x80-\xff]/.test(etag);
}
