import type { ErrorBody, ErrorCode, ValidationIssue } from '@vigil/core';

/** Where a failure happened: what a caller needs to report it or to find it in the server's logs. */
export interface VigilErrorContext {
  /** `GET /v1/...` as sent (path and query, without the base URL). */
  endpoint?: string;
  /** The `x-request-id` of the last answer, or the one the client sent when no answer came. */
  requestId?: string | null;
  /** How many attempts were made, retries included (1 when none was retried). */
  attempts?: number;
}

/** Every error the SDK throws for a call (invalid arguments aside: those are TypeError). */
export class VigilError extends Error {
  override name = 'VigilError';
  /** The HTTP status of the last answer; null when no answer came (timeout, connection). */
  readonly status: number | null;
  readonly detail: string;
  readonly requestId: string | null;
  readonly attempts: number;
  readonly endpoint: string | null;

  constructor(message: string, init: { status: number | null; detail: string } & VigilErrorContext, options?: { cause?: unknown }) {
    super(message, options);
    this.status = init.status;
    this.detail = init.detail;
    this.requestId = init.requestId ?? null;
    this.attempts = init.attempts ?? 1;
    this.endpoint = init.endpoint ?? null;
  }
}

export interface VigilApiErrorInit extends VigilErrorContext {
  status: number;
  detail: string;
  requestId: string | null;
  /** Seconds from `Retry-After`, else null. */
  retryAfterSeconds: number | null;
  body: ErrorBody | null;
}

/** A non-2xx answer from Vigil, carrying the spec's `detail`. Subclasses name the common statuses. */
export class VigilApiError extends VigilError {
  override name = 'VigilApiError';
  declare readonly status: number;
  /**
   * The error's catalogue code (docs/errors.md), e.g. `metagraph_unavailable`: what to branch on,
   * since a `detail` may be a sentence naming an argument. Null when the body carried none (a
   * proxy's page, a server older than the field); a newer server may send a code not listed yet.
   */
  readonly code: ErrorCode | (string & {}) | null;
  /** Seconds from `Retry-After` (429), else null. */
  readonly retryAfterSeconds: number | null;
  /** The parsed `{ detail, code, request_id?, errors? }`, or null for a body that is not one (a proxy's page). */
  readonly body: ErrorBody | null;
  /** The per-field issues of a 422 (`[{ path: 'query.days', message }]`); empty otherwise. */
  readonly errors: ValidationIssue[];

  constructor(init: VigilApiErrorInit) {
    super(`${init.status} ${init.detail}`, init);
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.body = init.body;
    this.code = init.body?.code ?? null;
    this.errors = init.body?.errors ?? [];
  }

  /** Spec part 7: 429, 500, 502, 503 and 504 may be retried; every other 4xx fails identically again. */
  get retryable(): boolean {
    return this.status === 429 || (this.status >= 500 && this.status <= 504 && this.status !== 501);
  }
}

/** 401: no key, a malformed key, or an unknown or revoked one. */
export class VigilAuthenticationError extends VigilApiError {
  override name = 'VigilAuthenticationError';
}
/** 403: a key without the scope or plan, an address outside an allowlist, a refused signer. */
export class VigilPermissionError extends VigilApiError {
  override name = 'VigilPermissionError';
}
/** 404. */
export class VigilNotFoundError extends VigilApiError {
  override name = 'VigilNotFoundError';
}
/** 400 or 422: the request is malformed or a value is refused; `errors` names each field on a 422. */
export class VigilValidationError extends VigilApiError {
  override name = 'VigilValidationError';
}
/** 409: the record exists, a race was lost, or a request with the same Idempotency-Key is still running. */
export class VigilConflictError extends VigilApiError {
  override name = 'VigilConflictError';
}
/** 429 after the retries allowed: `retryAfter` is the server's `Retry-After` in seconds (null without one). */
export class VigilRateLimitError extends VigilApiError {
  override name = 'VigilRateLimitError';
  get retryAfter(): number | null {
    return this.retryAfterSeconds;
  }
}
/** 5xx after the retries allowed. */
export class VigilServerError extends VigilApiError {
  override name = 'VigilServerError';
}

/** The error class for an answer's status. */
export function apiErrorFor(init: VigilApiErrorInit): VigilApiError {
  const { status } = init;
  if (status === 401) return new VigilAuthenticationError(init);
  if (status === 403) return new VigilPermissionError(init);
  if (status === 404) return new VigilNotFoundError(init);
  if (status === 400 || status === 422) return new VigilValidationError(init);
  if (status === 409) return new VigilConflictError(init);
  if (status === 429) return new VigilRateLimitError(init);
  if (status >= 500) return new VigilServerError(init);
  return new VigilApiError(init);
}

/** No answer within the timeout (per attempt), after the retries allowed. */
export class VigilTimeoutError extends VigilError {
  override name = 'VigilTimeoutError';
  readonly timeoutMs: number;
  constructor(timeoutMs: number, context: VigilErrorContext) {
    const detail = `no answer within ${timeoutMs} ms`;
    super(`${context.endpoint ?? 'request'}: ${detail}`, { status: null, detail, ...context });
    this.timeoutMs = timeoutMs;
  }
}

/** The connection failed (refused, reset, DNS, TLS) before an answer arrived, after the retries allowed. */
export class VigilConnectionError extends VigilError {
  override name = 'VigilConnectionError';
  constructor(cause: unknown, context: VigilErrorContext) {
    const reason = cause instanceof Error ? [cause.message, (cause.cause as Error | undefined)?.message].filter(Boolean).join(': ') : String(cause);
    const detail = `connection failed: ${reason}`;
    super(`${context.endpoint ?? 'request'}: ${detail}`, { status: null, detail, ...context }, { cause });
  }
}

/**
 * A 2xx answer that does not match the contract in @vigil/core (a server of another version, or a
 * proxy rewriting answers). `path` names the first bad field, e.g. `attestations[0].recorded_at`.
 */
export class VigilResponseError extends VigilError {
  override name = 'VigilResponseError';
  readonly path: string;
  constructor(path: string, problem: string, context: VigilErrorContext & { status: number }) {
    const where = path === '' ? '(the body)' : path;
    super(`${context.endpoint ?? 'response'}: response does not match the Vigil contract at ${where}: ${problem}`, {
      detail: `${where}: ${problem}`,
      ...context,
    });
    this.path = path;
  }
}

/** `a.b[0].c` from a zod issue path. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`)).join('');
}
