import { ErrorBody } from '@vigil/core';

/** A non-2xx answer from Vigil, carrying the spec's `detail` and what a caller needs to retry well. */
export class VigilApiError extends Error {
  override name = 'VigilApiError';
  readonly status: number;
  readonly detail: string;
  readonly requestId: string | null;
  /** Seconds from `Retry-After` on 429/503, else null. */
  readonly retryAfterSeconds: number | null;
  readonly body: ErrorBody | null;

  constructor(init: { status: number; detail: string; requestId: string | null; retryAfterSeconds: number | null; body: ErrorBody | null }) {
    super(`${init.status} ${init.detail}`);
    this.status = init.status;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.body = init.body;
  }

  /** Spec part 7: 429, 500, 502, 503 and 504 may be retried; every other 4xx fails identically again. */
  get retryable(): boolean {
    return [429, 500, 502, 503, 504].includes(this.status);
  }
}

/** The response did not match the contract in @vigil/core: a server/client version mismatch or a proxy in the way. */
export class VigilResponseError extends Error {
  override name = 'VigilResponseError';
  readonly path: string;
  constructor(path: string, message: string) {
    super(`${path}: response does not match the Vigil contract: ${message}`);
    this.path = path;
  }
}
