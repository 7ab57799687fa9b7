/** Retry settings of a client (docs/client.md, "Retries"). */
export interface RetryPolicy {
  /** Retries after the first attempt (default 3). */
  maxRetries: number;
  /** No retry starts when the call has run this long, waits included (ms, default 120 000). */
  retryBudgetMs: number;
  /** The first backoff step after a 5xx, a timeout or a connection failure (ms, default 1000), doubled per retry. */
  backoffBaseMs: number;
  /** The largest backoff step (ms, default 30 000). */
  backoffMaxMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, retryBudgetMs: 120_000, backoffBaseMs: 1000, backoffMaxMs: 30_000 };

/** At most this much jitter is added to a 429's `Retry-After` (ms). */
export const RETRY_AFTER_JITTER_MS = 1000;

/**
 * The wait before retry number `retry` (1 for the first). A 429 with `Retry-After` waits that long
 * plus up to one second of jitter, so that workers sharing one address do not all return in the
 * same instant (spec part 7). Anything else backs off exponentially from `backoffBaseMs` with
 * ±25 % jitter: about 1 s, 2 s, 4 s, … capped at `backoffMaxMs`.
 */
export function retryDelayMs(policy: RetryPolicy, retry: number, retryAfterSeconds: number | null, random: () => number): number {
  if (retryAfterSeconds !== null) return Math.round(retryAfterSeconds * 1000 + random() * RETRY_AFTER_JITTER_MS);
  const step = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** (retry - 1));
  return Math.round(step * (0.75 + random() * 0.5));
}

/** setTimeout as a promise that an AbortSignal ends early (rejecting with the signal's reason). */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
