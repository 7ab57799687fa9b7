import { VigilApiError, VigilConnectionError, VigilTimeoutError } from '@vigil/client';

/**
 * Whether a failed call is worth repeating as is: no answer (refused, reset, timed out: a server
 * restarting), or an answer the protocol says to retry (429, 5xx), or a metagraph the server could
 * not read for the moment. Anything else fails the same way again.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof VigilConnectionError || error instanceof VigilTimeoutError) return true;
  // By the catalogue code, never by the detail's wording (docs/errors.md).
  if (error instanceof VigilApiError) return error.retryable || error.code === 'metagraph_unavailable';
  // The loop's own per-request deadline (AbortSignal.timeout) ends a call with its reason.
  if (error instanceof DOMException && error.name === 'TimeoutError') return true;
  return false;
}

/** A one-line reason for an event or a log line. */
export function reasonOf(error: unknown): string {
  if (error instanceof VigilApiError) return `${error.status} ${error.detail}`;
  if (error instanceof VigilConnectionError) {
    // fetch's `TypeError: fetch failed` carries the socket error (ECONNREFUSED, ECONNRESET…) as its cause.
    const cause = (error.cause as { cause?: { code?: string; message?: string } } | undefined)?.cause;
    return `connection failed: ${cause?.code ?? cause?.message ?? 'fetch failed'}`;
  }
  if (error instanceof VigilTimeoutError) return error.detail;
  return error instanceof Error ? error.message : String(error);
}
