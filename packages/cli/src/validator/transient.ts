import { VigilApiError, VigilConnectionError, VigilTimeoutError } from '@vigil/client';

/**
 * Whether a failed call is worth repeating as is: no answer (refused, reset, timed out: a server
 * restarting), or an answer the protocol says to retry (429, 5xx), or a metagraph the server could
 * not read for the moment. Anything else fails the same way again.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof VigilConnectionError || error instanceof VigilTimeoutError) return true;
  if (error instanceof VigilApiError) return error.retryable || (error.status === 403 && error.detail.startsWith('metagraph unavailable'));
  // The signed client hands fetch's own failures through: `TypeError: fetch failed` (with the
  // socket error as cause) or the AbortSignal.timeout of a call.
  if (error instanceof TypeError && error.message === 'fetch failed') return true;
  if (error instanceof DOMException && error.name === 'TimeoutError') return true;
  return false;
}

/** A one-line reason for an event or a log line. */
export function reasonOf(error: unknown): string {
  if (error instanceof VigilApiError) return `${error.status} ${error.detail}`;
  if (error instanceof TypeError && error.message === 'fetch failed') {
    const cause = error.cause as { code?: string; message?: string } | undefined;
    return `connection failed: ${cause?.code ?? cause?.message ?? 'fetch failed'}`;
  }
  return error instanceof Error ? error.message : String(error);
}
