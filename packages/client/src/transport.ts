import { HEADERS, IDEMPOTENCY_HEADERS } from '@vigil/core';
import type * as z from 'zod';
import { withDates } from './dates.js';
import type { Dated } from './dates.js';
import { VigilApiError, VigilConnectionError, VigilError, VigilTimeoutError } from './errors.js';
import { errorOfAnswer, parseAnswer } from './response.js';
import { abortableSleep, DEFAULT_RETRY_POLICY, retryDelayMs } from './retry.js';
import type { RetryPolicy } from './retry.js';
import { randomUuid } from './uuid.js';

/** Options of `new Vigil(…)` (docs/client.md, "Options"). */
export interface VigilOptions {
  /** For example `https://api.vigil.example`; a trailing slash is ignored. */
  baseUrl: string;
  /**
   * The API token (`vgl_…`), sent as `Authorization: Bearer`. Required: pass `null` (or use
   * `Vigil.public()`) to call only the public reads without one.
   */
  apiKey: string | null;
  /** Defaults to the global fetch (Node ≥ 20, Deno, Bun, browsers, edge runtimes). */
  fetch?: typeof globalThis.fetch;
  /** Extra headers on every request, e.g. a `User-Agent` where the runtime allows one. */
  headers?: Record<string, string>;
  /** Per attempt, in milliseconds (default 60 000). */
  timeout?: number;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** No retry starts once the call has run this long, waits included (ms, default 120 000). */
  retryBudget?: number;
  /** For tests: how the client waits between attempts (default: setTimeout, ended early by the call's signal). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** For tests: the jitter source, a number in [0, 1) (default Math.random). */
  random?: () => number;
  /** For tests: the clock the retry budget is measured with (default Date.now). */
  now?: () => number;
}

/** Per-call options, the last argument of every method. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout (ms). */
  timeout?: number;
  /** Overrides the client's retry count. */
  maxRetries?: number;
  /** Sent as `x-request-id` on every attempt instead of a fresh UUID per attempt. */
  requestId?: string;
  /** For POST and DELETE: the `Idempotency-Key` of this operation instead of a generated UUID. */
  idempotencyKey?: string;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

/** Options of a paginated call. */
export interface PageOptions extends CallOptions {
  /** `X-Vigil-Page`: a page's `nextPage` (absent: the first page). */
  page?: string | number;
  /** `X-Vigil-Page-Size`: 1-100 (server default 50). */
  pageSize?: number;
}

/**
 * How a request may be repeated. `safe`: it changes nothing, or the same request does the same
 * thing again (GETs, verification, uploads by content). `keyed`: the server honours
 * `Idempotency-Key`, so a repeat with the same key is answered from the first. `unsafe`: the server
 * cannot deduplicate it (key creation): only a 429, refused before anything ran, is retried.
 */
export type Repeatable = 'safe' | 'keyed' | 'unsafe';

export type RequestBody = { json: unknown } | { blob: Blob; contentType: string };

export interface RequestSpec<S extends z.ZodType> {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: RequestBody;
  schema: S;
  repeatable: Repeatable;
  /** Paginated endpoints send the page headers. */
  paginated?: boolean;
}

export interface Answer<T> {
  data: T;
  /** `X-Vigil-Next-Page`, or null on the last page. */
  nextPage: string | null;
}

interface Resolved {
  baseUrl: string;
  apiKey: string | null;
  fetch: typeof globalThis.fetch;
  headers: Record<string, string>;
  timeout: number;
  retry: RetryPolicy;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
}

function nonNegative(value: number | undefined, name: string, fallback: number, integer = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (integer && !Number.isSafeInteger(value))) {
    throw new TypeError(`${name}: expected a non-negative ${integer ? 'integer' : 'number'}`);
  }
  return value;
}

export function baseUrlOf(value: unknown): string {
  if (typeof value !== 'string') throw new TypeError('options.baseUrl: expected a URL string');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`options.baseUrl: not a valid URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`options.baseUrl: expected http or https, got ${url.protocol}`);
  if (url.search !== '' || url.hash !== '') throw new TypeError('options.baseUrl: must not carry a query or fragment');
  return url.href.replace(/\/+$/, '');
}

const API_KEY_RE = /^vgl_[0-9a-f]{8}_[0-9a-f]{48}$/;

function resolve(options: VigilOptions): Resolved {
  if (typeof options !== 'object' || options === null) throw new TypeError('options: expected { baseUrl, apiKey }');
  if (options.apiKey === undefined) {
    throw new TypeError('options.apiKey: required (a vgl_… token); pass apiKey: null, or use Vigil.public(), to call only the public reads');
  }
  if (options.apiKey !== null && (typeof options.apiKey !== 'string' || !API_KEY_RE.test(options.apiKey))) {
    throw new TypeError('options.apiKey: expected a token of the form vgl_<8 hex>_<48 hex>, or null');
  }
  if (typeof (options.fetch ?? globalThis.fetch) !== 'function') throw new TypeError('options.fetch: no fetch implementation available');
  for (const name of ['sleep', 'random', 'now'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') throw new TypeError(`options.${name}: expected a function`);
  }
  return {
    baseUrl: baseUrlOf(options.baseUrl),
    apiKey: options.apiKey,
    // Bound: a browser's fetch called as a method of another object throws "Illegal invocation".
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    headers: { ...options.headers },
    timeout: nonNegative(options.timeout, 'options.timeout', 60_000),
    retry: {
      ...DEFAULT_RETRY_POLICY,
      maxRetries: nonNegative(options.maxRetries, 'options.maxRetries', DEFAULT_RETRY_POLICY.maxRetries, true),
      retryBudgetMs: nonNegative(options.retryBudget, 'options.retryBudget', DEFAULT_RETRY_POLICY.retryBudgetMs),
    },
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
  };
}

type Outcome = { kind: 'answer'; response: Response; text: string } | { kind: 'timeout' } | { kind: 'connection'; error: unknown };

/** Sends requests: authentication, timeouts, retries, idempotency keys, typed errors, parsing. */
export class Transport {
  readonly #o: Resolved;

  constructor(options: VigilOptions) {
    this.#o = resolve(options);
  }

  get baseUrl(): string {
    return this.#o.baseUrl;
  }

  /** The fetch this client sends with (for reads outside the API, such as a snapshot file). */
  get fetch(): typeof globalThis.fetch {
    return this.#o.fetch;
  }

  get hasApiKey(): boolean {
    return this.#o.apiKey !== null;
  }

  async request<S extends z.ZodType>(spec: RequestSpec<S>, options: PageOptions = {}): Promise<Answer<Dated<S>>> {
    const timeout = nonNegative(options.timeout, 'options.timeout', this.#o.timeout);
    const maxRetries = nonNegative(options.maxRetries, 'options.maxRetries', this.#o.retry.maxRetries, true);
    const target = this.#target(spec);
    const sent = new URL(target);
    const endpoint = `${spec.method} ${sent.pathname}${sent.search}`;
    const headers = this.#headers(spec, options);
    const body = spec.body === undefined ? undefined : 'json' in spec.body ? JSON.stringify(spec.body.json) : spec.body.blob;
    const started = this.#o.now();

    for (let attempt = 1; ; attempt++) {
      const requestId = options.requestId ?? randomUuid();
      headers[HEADERS.requestId] = requestId;
      const outcome = await this.#attempt(target, { method: spec.method, headers, ...(body !== undefined ? { body } : {}) }, timeout, options.signal);
      const context = { endpoint, attempts: attempt, requestId };
      let error: VigilError;
      if (outcome.kind === 'answer') {
        const { response, text } = outcome;
        if (response.ok) {
          const answerContext = { ...context, requestId: response.headers.get(HEADERS.requestId) ?? requestId };
          const parsed = parseAnswer(response.status, text, spec.schema, answerContext);
          return { data: withDates(spec.schema, parsed), nextPage: response.headers.get(HEADERS.nextPage) };
        }
        error = errorOfAnswer(response, text, context);
      } else if (outcome.kind === 'timeout') {
        error = new VigilTimeoutError(timeout, context);
      } else {
        error = new VigilConnectionError(outcome.error, context);
      }
      if (attempt > maxRetries || !this.#mayRetry(spec.repeatable, error)) throw error;
      const retryAfter = error instanceof VigilApiError && error.status === 429 ? error.retryAfterSeconds : null;
      const delay = retryDelayMs(this.#o.retry, attempt, retryAfter, this.#o.random);
      if (this.#o.now() - started + delay > this.#o.retry.retryBudgetMs) throw error;
      await this.#o.sleep(delay, options.signal);
      if (options.signal?.aborted) throw options.signal.reason;
    }
  }

  /** Spec part 7: 429 and 500/502/503/504 only, never another 4xx; unanswered attempts only when a repeat is harmless. */
  #mayRetry(repeatable: Repeatable, error: VigilError): boolean {
    if (error instanceof VigilApiError) {
      // A 429 is refused before the request runs: repeating it cannot do the work twice.
      if (error.status === 429) return true;
      return [500, 502, 503, 504].includes(error.status) && repeatable !== 'unsafe';
    }
    return repeatable !== 'unsafe';
  }

  #target(spec: RequestSpec<z.ZodType>): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(spec.query ?? {})) if (value !== undefined) params.set(name, String(value));
    const query = params.toString();
    return `${this.#o.baseUrl}${spec.path}${query === '' ? '' : `?${query}`}`;
  }

  #headers(spec: RequestSpec<z.ZodType>, options: PageOptions): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.#o.headers, ...options.headers };
    if (this.#o.apiKey !== null) headers.authorization = `Bearer ${this.#o.apiKey}`;
    if (spec.body !== undefined) headers['content-type'] = 'json' in spec.body ? 'application/json' : spec.body.contentType;
    if (spec.method !== 'GET') {
      const key = options.idempotencyKey ?? randomUuid();
      if (typeof key !== 'string' || !/^[\x20-\x7e]{1,255}$/.test(key)) {
        throw new TypeError('options.idempotencyKey: expected 1-255 printable ASCII characters');
      }
      headers[IDEMPOTENCY_HEADERS.key] = key;
    }
    if (spec.paginated) {
      if (options.page !== undefined) headers[HEADERS.page] = String(options.page);
      if (options.pageSize !== undefined) headers[HEADERS.pageSize] = String(options.pageSize);
    }
    return headers;
  }

  async #attempt(url: string, init: RequestInit, timeoutMs: number, signal: AbortSignal | undefined): Promise<Outcome> {
    if (signal?.aborted) throw signal.reason;
    const controller = new AbortController();
    let timedOut = false;
    const onAbort = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      // The body is read under the same timeout: an answer that stalls mid-body is a timeout too.
      const response = await this.#o.fetch(url, { ...init, signal: controller.signal });
      const text = await response.text();
      return { kind: 'answer', response, text };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timedOut) return { kind: 'timeout' };
      return { kind: 'connection', error };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
