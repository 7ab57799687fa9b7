import type { Failure } from '../api.js';

/** Failed reads are tried again no sooner than this (a 5xx or an unreachable server). */
export const MIN_ERROR_RETRY_SECONDS = 30;

/**
 * When to read again after a failure, in seconds, or null to wait for the reader: a 429 waits
 * exactly what Retry-After says; a 5xx or an unreachable server is tried again at the polling
 * pace (never faster than the server's cache lifetime, nor than 30 s); a 404, another refusal or
 * an answer that breaks the contract fails identically every time.
 */
export function retryDelaySeconds(failure: Failure, pollSeconds: number | null): number | null {
  switch (failure.kind) {
    case 'rate_limited':
      return Math.max(1, failure.retryAfterSeconds);
    case 'server':
    case 'unreachable':
      return Math.max(MIN_ERROR_RETRY_SECONDS, pollSeconds ?? 0);
    default:
      return null;
  }
}
