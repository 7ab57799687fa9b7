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
 * `Idempotency-Key`, so a repeat with the same key is answered from the first. `answered`: a 5xx
 * (the server answered, its transaction undone) may be repeated, but not an attempt whose answer was
 * lost, which may have done the work (a task claim). `unsafe`: the server cannot deduplicate it (key
 * creation): only a 429, refused before anything ran, is retried.
 */
export type Repeatable = 'safe' | 'keyed' | 'answered' | 'unsafe';

export type RequestBody = { json: unknown } | { blob: Blob; contentType: string };

export interface RequestSpec<S extends z.ZodType> {
  /** Upper case: `GET`, `POST`, `DELETE` (a signed request may use any method). */
  method: string;
  /** Percent-encoded, relative to baseUrl; may carry its own `?query` when `query` is absent. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: RequestBody;
  schema: S;
  repeatable: Repeatable;
  /** Paginated endpoints send the page headers. */
  paginated?: boolean;
  /** Signed with the client's hotkey, afresh on every attempt (the miner and validator endpoints). */
  signed?: boolean;
  /** Whether timestamps become `Date` (default true); false keeps the answer exactly as sent. */
  dates?: boolean;
}

/**
 * Signs one attempt of a request: the headers that carry the signature over the method, the
 * target as it goes on the wire and the exact body bytes (docs/crypto.md, "Signed requests").
 */
export interface RequestSigner {
  sign(method: string, target: string, body: Uint8Array, signal: AbortSignal | undefined): Promise<Record<string, string>>;
}

/** Internal options of a Transport, not part of VigilOptions: the signed client's signer. */
export const SIGNER: unique symbol = Symbol('vigil.signer');
export type TransportOptions = VigilOptions & { [SIGNER]?: RequestSigner };

export interface Answer<T> {
  data: T;
  /** `X-Vigil-Next-Page`, or null on the last page. */
  nextPage: string | null;
  /** The answer's headers (a resource reads one the body does not carry, as `sboms.verifyAs` reads `X-Vigil-Verdict`). */
  headers: Headers;
}

interface Resolved {
  baseUrl: string;
  signer: RequestSigner | undefined;
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

function resolve(options: TransportOptions): Resolved {
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
    signer: options[SIGNER],
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

/** Whether a fetch failure is ECONNREFUSED (every address refused, where several were tried). */
export function refused(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (e.code === 'ECONNREFUSED') return true;
  if (Array.isArray(e.errors) && e.errors.length > 0) return e.errors.every((inner) => refused(inner, depth + 1));
  return refused(e.cause, depth + 1);
}

type Outcome = { kind: 'answer'; response: Response; bytes: Uint8Array } | { kind: 'timeout' } | { kind: 'connection'; error: unknown };

const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD']);
const utf8 = new TextDecoder();

/** A JSON body as the bytes sent (and, for a signed request, hashed into its signature). */
function jsonBytes(value: unknown): Uint8Array<ArrayBuffer> {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`body: cannot be serialized as JSON (${(error as Error).message})`);
  }
  if (text === undefined) throw new TypeError('body: cannot be serialized as JSON');
  return new TextEncoder().encode(text);
}

/** What an answer read as: `json` parses and checks the body against the schema, `bytes` keeps it as sent. */
type Reading = 'json' | 'bytes';

/**
 * Sends requests: authentication or signing, timeouts, retries, idempotency keys, typed errors,
 * parsing. The one request path of the SDK: the customer, public and signed calls all go through it.
 */
export class Transport {
  readonly #o: Resolved;
  /** Whether the server has answered this client once (any HTTP status): see refusedBeforeAnyAnswer. */
  #answered = false;

  constructor(options: TransportOptions) {
    this.#o = resolve(options);
  }

  get baseUrl(): string {
    return this.#o.baseUrl;
  }

  /** The fetch this client sends with (for reads outside the API, such as a snapshot file); call it unbound. */
  get fetch(): typeof globalThis.fetch {
    return this.#o.fetch;
  }

  get hasApiKey(): boolean {
    return this.#o.apiKey !== null;
  }

  /** One call, answered with its JSON body checked against `spec.schema` (timestamps as Date unless `dates: false`). */
  async request<S extends z.ZodType>(spec: RequestSpec<S>, options: PageOptions = {}): Promise<Answer<Dated<S>>> {
    const { bytes, response, context } = await this.#send(spec, options, 'json');
    const answerContext = { ...context, requestId: response.headers.get(HEADERS.requestId) ?? context.requestId };
    const parsed = parseAnswer(response.status, utf8.decode(bytes), spec.schema, answerContext);
    const data = spec.dates === false ? (parsed as Dated<S>) : withDates(spec.schema, parsed);
    return { data, nextPage: response.headers.get(HEADERS.nextPage), headers: response.headers };
  }

  /** One call answered with something other than JSON (a validator's downloads): the body's bytes, untouched. */
  async bytes(spec: Omit<RequestSpec<z.ZodType>, 'schema'>, options: CallOptions = {}): Promise<Uint8Array> {
    return (await this.#send({ ...spec, schema: undefined as never }, options, 'bytes')).bytes;
  }

  /** The retry loop: every attempt, every retry decision and every wait of the SDK happen here. */
  async #send(
    spec: RequestSpec<z.ZodType>,
    options: PageOptions,
    reading: Reading,
  ): Promise<{ bytes: Uint8Array; response: Response; context: { endpoint: string; attempts: number; requestId: string } }> {
    const timeout = nonNegative(options.timeout, 'options.timeout', this.#o.timeout);
    const maxRetries = nonNegative(options.maxRetries, 'options.maxRetries', this.#o.retry.maxRetries, true);
    const signer = spec.signed ? this.#o.signer : undefined;
    if (spec.signed && signer === undefined) throw new TypeError('a signed request needs a SignedVigilClient (a keypair)');
    const target = this.#target(spec);
    const sent = new URL(target);
    const wireTarget = `${sent.pathname}${sent.search}`;
    const endpoint = `${spec.method} ${wireTarget}`;
    const headers = this.#headers(spec, options, reading);
    const body = this.#body(spec, headers);
    // Read only when a retry may follow: with retries off, the clock is the signer's alone (one
    // reading per attempt, which tests that script the clock rely on).
    const started = maxRetries > 0 ? this.#o.now() : 0;

    let resigned = 0;
    for (let attempt = 1; ; attempt++) {
      const requestId = options.requestId ?? randomUuid();
      headers[HEADERS.requestId] = requestId;
      // A signature is accepted once: every attempt is signed again, with a fresh timestamp.
      if (signer !== undefined) Object.assign(headers, await signer.sign(spec.method, wireTarget, body instanceof Uint8Array ? body : new Uint8Array(0), options.signal));
      const outcome = await this.#attempt(target, { method: spec.method, headers, ...(body !== undefined ? { body } : {}) }, timeout, options.signal);
      const context = { endpoint, attempts: attempt, requestId };
      let error: VigilError;
      if (outcome.kind === 'answer') {
        this.#answered = true;
        const { response, bytes } = outcome;
        if (response.ok) return { bytes, response, context };
        error = errorOfAnswer(response, utf8.decode(bytes), context);
      } else if (outcome.kind === 'timeout') {
        error = new VigilTimeoutError(timeout, context);
      } else {
        error = new VigilConnectionError(outcome.error, context);
        // A refused connection to a server that never answered is a wrong URL or a server that is
        // not running: said at once instead of after the retries (docs/client.md, "Retries").
        if (attempt === 1 && !this.#answered && refused(outcome.error)) throw error;
      }
      // Another process holding this hotkey (a validator restarted within the second, a second
      // worker) signed this same request at this same second: the server refused it before running
      // it, so it is signed again a second later whatever the request, up to the signer's 30 s lead.
      if (signer !== undefined && replayed(error) && resigned < MAX_REPLAY_RESIGNS) {
        resigned++;
        continue;
      }
      if (attempt - resigned > maxRetries || !this.#mayRetry(spec.repeatable, error)) throw error;
      const retryAfter = error instanceof VigilApiError && error.status === 429 ? error.retryAfterSeconds : null;
      const delay = retryDelayMs(this.#o.retry, attempt - resigned, retryAfter, this.#o.random);
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
    return repeatable === 'safe' || repeatable === 'keyed';
  }

  #target(spec: RequestSpec<z.ZodType>): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(spec.query ?? {})) if (value !== undefined) params.set(name, String(value));
    const query = params.toString();
    const target = `${this.#o.baseUrl}${spec.path}${query === '' ? '' : `?${query}`}`;
    if (spec.signed) {
      // The signature covers the target byte for byte, so a path the URL parser would normalize
      // (dot segments, backslashes, characters it percent-encodes) must fail here, not at the server.
      const url = new URL(target);
      const given = target.slice(url.origin.length);
      if (`${url.pathname}${url.search}` !== given) {
        throw new TypeError(`pathWithQuery: would be sent as ${url.pathname}${url.search}, not as given; pass it in that form`);
      }
    }
    return target;
  }

  #headers(spec: RequestSpec<z.ZodType>, options: PageOptions, reading: Reading): Record<string, string> {
    const headers: Record<string, string> = { accept: reading === 'json' ? 'application/json' : '*/*', ...this.#o.headers, ...options.headers };
    if (this.#o.apiKey !== null) headers.authorization = `Bearer ${this.#o.apiKey}`;
    if (spec.body !== undefined && !('json' in spec.body)) headers['content-type'] = spec.body.contentType;
    // The signed endpoints do not deduplicate by key; the customer ones do (docs/idempotency.md).
    if (spec.method !== 'GET' && (!spec.signed || spec.repeatable === 'keyed')) {
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

  /** The body as sent, serialized once so that every attempt (and its signature) carries the same bytes. */
  #body(spec: RequestSpec<z.ZodType>, headers: Record<string, string>): Uint8Array<ArrayBuffer> | Blob | undefined {
    const bodyless = METHODS_WITHOUT_BODY.has(spec.method);
    if (spec.body === undefined) {
      // POST/PUT/PATCH without a body still send `Content-Length: 0` on a signed request (spec part 7: 411 otherwise).
      if (!spec.signed || bodyless) return undefined;
      headers['content-length'] = '0';
      return new Uint8Array(0);
    }
    if (bodyless) throw new TypeError(`body: a ${spec.method} request carries no body`);
    if (!('json' in spec.body)) return spec.body.blob;
    const bytes = jsonBytes(spec.body.json);
    if (bytes.length > 0) headers['content-type'] = 'application/json';
    if (spec.signed) headers['content-length'] = String(bytes.length);
    return bytes;
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
    // Called unbound: a browser's fetch called as a method of another object throws "Illegal invocation".
    const send = this.#o.fetch;
    try {
      // The body is read under the same timeout: an answer that stalls mid-body is a timeout too.
      const response = await send(url, { ...init, signal: controller.signal });
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { kind: 'answer', response, bytes };
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

/** How many times one signed request is signed again after replay refusals (the signer signs at most 30 s ahead). */
const MAX_REPLAY_RESIGNS = 32;

/** The server's `signature already used (replay)` (docs/protocol.md, check 6). */
function replayed(error: VigilError): boolean {
  return error instanceof VigilApiError && error.status === 401 && (error.code === 'signature_replayed' || error.detail === 'signature already used (replay)');
}
