import type { Failure } from '../api.js';

/** The first retry of a failed read (a 5xx or an unreachable server) comes this soon. */
export const MIN_ERROR_RETRY_SECONDS = 30;

/**
 * When to read again after a failure, in seconds, or null to wait for the reader: a 429 waits
 * exactly what Retry-After says; a 5xx or an unreachable server is tried again with backoff,
 * 30 s after the first failure in a row, then 60 s, 120 s, … up to the page's polling period (a
 * page read once keeps 30 s), so one failed poll of a 10-minute page is not left for 10 minutes;
 * a 404, another refusal or an answer that breaks the contract fails identically every time.
 * `failuresInRow` counts this failure (1 for the first).
 */
export function retryDelaySeconds(failure: Failure, pollSeconds: number | null, failuresInRow = 1): number | null {
  switch (failure.kind) {
    case 'rate_limited':
      return Math.max(1, failure.retryAfterSeconds);
    case 'server':
    case 'unreachable': {
      const ceiling = Math.max(MIN_ERROR_RETRY_SECONDS, pollSeconds ?? 0);
      const backoff = MIN_ERROR_RETRY_SECONDS * 2 ** Math.min(Math.max(0, failuresInRow - 1), 10);
      return Math.min(ceiling, backoff);
    }
    default:
      return null;
  }
}
