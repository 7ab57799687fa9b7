/**
 * The wait before retry number `retry` (1-based): exponential with full jitter, so clients that
 * failed together do not come back together. A `Retry-After` the registry sent wins when it is
 * longer; one beyond `maxMs` is not honoured (the caller gives up instead of sleeping for minutes).
 */
export function retryDelayMs(
  retry: number,
  options: { baseMs: number; maxMs: number; retryAfter?: string | undefined; now?: number; random?: () => number },
): number | null {
  const random = options.random ?? Math.random;
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** (retry - 1));
  const jittered = Math.round(ceiling / 2 + random() * (ceiling / 2));
  const asked = parseRetryAfterMs(options.retryAfter, options.now ?? Date.now());
  if (asked === null) return jittered;
  if (asked > options.maxMs) return null;
  return Math.max(asked, jittered);
}

/** `Retry-After` is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfterMs(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}
