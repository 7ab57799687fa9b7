import { HEADERS } from '@vigil/core';
import { signRequest, signedRequestHeaders } from '@vigil/crypto';
import type { z } from 'zod';
import { VigilClient, resolveClientOptions } from './client.js';
import type { RequestOptions, VigilClientOptions } from './client.js';
import { VigilApiError } from './errors.js';
import { keypairFromSeed } from './keypair.js';
import type { VigilKeypair } from './keypair.js';
import { errorOfAnswer, readVigilResponse } from './response.js';

export interface SignedVigilClientOptions extends VigilClientOptions {
  /** The ed25519 key whose hotkey is registered on netuid 76 (see keypairFromSeed / parseKeypairFile). */
  keypair: VigilKeypair;
  /** Clock in milliseconds since the epoch, like `Date.now` (the default); read once per attempt. */
  now?: () => number;
  /**
   * The deployment every signature is bound to: the server's `server_hotkey` (what
   * `GET /v1/server-identity` answers). When absent, the client reads `/v1/server-identity` once,
   * before its first signed request, and keeps it. Pin it (e.g. from configuration) so that a
   * server answering with another identity is never signed for.
   */
  audience?: string;
  /**
   * Extra attempts after a 429, 500, 502, 503 or 504 (default 0: a signed call may change state,
   * so retrying is the caller's decision). Each attempt is signed again with a fresh timestamp,
   * because the server accepts each signature once.
   */
  maxRetries?: number;
  /** First backoff step for 5xx retries, doubled per attempt with full jitter (default 1000). */
  retryBaseDelayMs?: number;
}

export interface SignedRequestOptions<S extends z.ZodType | undefined = undefined> extends RequestOptions {
  /** Validates the 2xx body; a mismatch throws VigilResponseError. */
  schema?: S;
}

const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD']);

function serializeBody(body: unknown): Uint8Array<ArrayBuffer> | null {
  if (body === undefined) return null;
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch (error) {
    throw new TypeError(`body: cannot be serialized as JSON (${(error as Error).message})`);
  }
  if (text === undefined) throw new TypeError('body: cannot be serialized as JSON');
  return new TextEncoder().encode(text);
}

/** How far ahead of the clock a repeated request may be signed (the server accepts 120 s). */
const MAX_SIGNING_LEAD_S = 30;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
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

/**
 * VigilClient plus signed requests for validators and miners. Every public read of VigilClient
 * is available; `request` signs with the keypair's ed25519 key (docs/client.md).
 */
export class SignedVigilClient extends VigilClient {
  readonly hotkey: string;
  readonly #keypair: VigilKeypair;
  readonly #origin: string;
  readonly #basePath: string;
  readonly #apiKey: string | undefined;
  readonly #fetch: typeof globalThis.fetch;
  readonly #headers: Record<string, string>;
  readonly #now: () => number;
  readonly #maxRetries: number;
  readonly #retryBaseDelayMs: number;
  #audience: Promise<string> | undefined;
  /** Last timestamp signed per method and target: see #timestampFor. */
  readonly #lastSigned = new Map<string, number>();
  #latestNow = 0;

  constructor(options: SignedVigilClientOptions) {
    super(options);
    const resolved = resolveClientOptions(options);
    const keypair = options.keypair;
    if (
      typeof keypair !== 'object' ||
      keypair === null ||
      !(keypair.secretKey instanceof Uint8Array) ||
      typeof keypair.hotkey !== 'string'
    ) {
      throw new TypeError('options.keypair: expected { secretKey, publicKey, hotkey } from keypairFromSeed or parseKeypairFile');
    }
    // A hand-assembled keypair whose hotkey is not its key's address would sign as one hotkey
    // while the caller believes it is another; catch it here rather than as 401s later.
    if (keypair.secretKey.length !== 32 || keypairFromSeed(keypair.secretKey).hotkey !== keypair.hotkey) {
      throw new TypeError('options.keypair: hotkey is not the ss58 address of secretKey');
    }
    if (options.now !== undefined && typeof options.now !== 'function') {
      throw new TypeError('options.now: expected a function returning milliseconds since the epoch');
    }
    const maxRetries = options.maxRetries ?? 0;
    if (!Number.isSafeInteger(maxRetries) || maxRetries < 0) {
      throw new TypeError('options.maxRetries: expected a non-negative integer');
    }
    const retryBaseDelayMs = options.retryBaseDelayMs ?? 1000;
    if (!Number.isFinite(retryBaseDelayMs) || retryBaseDelayMs < 0) {
      throw new TypeError('options.retryBaseDelayMs: expected a non-negative number');
    }
    const url = new URL(resolved.baseUrl);
    this.#origin = url.origin;
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#keypair = keypair;
    this.hotkey = keypair.hotkey;
    this.#apiKey = resolved.apiKey;
    this.#fetch = resolved.fetch;
    this.#headers = resolved.headers;
    this.#now = options.now ?? Date.now;
    this.#maxRetries = maxRetries;
    this.#retryBaseDelayMs = retryBaseDelayMs;
    if (options.audience !== undefined) {
      if (typeof options.audience !== 'string' || !/^[\x21-\x7e]{1,128}$/.test(options.audience)) {
        throw new TypeError('options.audience: expected the server identity key or deployment id (1-128 printable ASCII, no spaces)');
      }
      this.#audience = Promise.resolve(options.audience);
    }
  }

  /** The audience signatures are bound to: given, or read once from /v1/server-identity. */
  audience(options: { signal?: AbortSignal } = {}): Promise<string> {
    if (this.#audience === undefined) {
      const pending = this.serverIdentity(options.signal ? { signal: options.signal } : {}).then((identity) => identity.server_hotkey);
      // A failed read is not kept: the next request asks again.
      pending.catch(() => {
        if (this.#audience === pending) this.#audience = undefined;
      });
      this.#audience = pending;
    }
    return this.#audience;
  }

  /**
   * Sends one signed request and returns the parsed JSON answer. `pathWithQuery` is relative to
   * baseUrl, already percent-encoded (`/v1/…?k=v`); `body` is serialized to JSON once and those
   * exact bytes are both hashed into the signature and sent.
   */
  request<S extends z.ZodType>(
    method: string,
    pathWithQuery: string,
    body: unknown,
    options: SignedRequestOptions<S> & { schema: S },
  ): Promise<z.output<S>>;
  request(method: string, pathWithQuery: string, body?: unknown, options?: SignedRequestOptions): Promise<unknown>;
  async request(
    method: string,
    pathWithQuery: string,
    body?: unknown,
    options: SignedRequestOptions<z.ZodType | undefined> = {},
  ): Promise<unknown> {
    if (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method)) {
      throw new TypeError('method: expected an HTTP method name');
    }
    const verb = method.toUpperCase();
    const target = this.#target(pathWithQuery);
    const bytes = serializeBody(body);
    if (bytes !== null && METHODS_WITHOUT_BODY.has(verb)) throw new TypeError(`body: a ${verb} request carries no body`);
    // POST/PUT/PATCH without a body still send `Content-Length: 0` (spec part 7: 411 otherwise).
    const sent = bytes ?? (METHODS_WITHOUT_BODY.has(verb) ? null : new Uint8Array(0));

    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#attempt(verb, target, sent, options);
      } catch (error) {
        if (!(error instanceof VigilApiError) || !error.retryable || attempt >= this.#maxRetries) throw error;
        const backoff =
          error.retryAfterSeconds !== null
            ? error.retryAfterSeconds * 1000 + Math.random() * 250
            : Math.random() * this.#retryBaseDelayMs * 2 ** attempt;
        await sleep(backoff, options.signal);
      }
    }
  }

  /**
   * Sends one signed GET and returns the answer's bytes as they came, for the endpoints that answer
   * something other than JSON (a validator's artifact and agent bundle downloads). Errors are the
   * same as `request`'s; retries follow `maxRetries` the same way.
   */
  async download(pathWithQuery: string, options: RequestOptions = {}): Promise<Uint8Array> {
    const target = this.#target(pathWithQuery);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#send('GET', target, null, options, '*/*', async (response) => {
          if (!response.ok) throw errorOfAnswer(response, await response.text(), { endpoint: `GET ${target}`, requestId: response.headers.get(HEADERS.requestId) });
          return new Uint8Array(await response.arrayBuffer());
        });
      } catch (error) {
        if (!(error instanceof VigilApiError) || !error.retryable || attempt >= this.#maxRetries) throw error;
        const backoff = error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 + Math.random() * 250 : Math.random() * this.#retryBaseDelayMs * 2 ** attempt;
        await sleep(backoff, options.signal);
      }
    }
  }

  /**
   * The server refuses a signature it has seen (replay), and the same request signed twice in one
   * second is the same signature: a validator polling `tasks/claim` or re-reading threat intel would
   * meet 401s. Each repeat of a method and target therefore signs one second later than the last,
   * well inside the freshness window for any realistic burst.
   */
  #timestampFor(key: string): { timestamp: number; lead: number } {
    const now = Math.floor(this.#now() / 1000);
    const last = this.#lastSigned.get(key);
    const timestamp = last !== undefined && last >= now ? last + 1 : now;
    if (this.#lastSigned.size >= 1024) {
      for (const [k, t] of this.#lastSigned) if (t < now) this.#lastSigned.delete(k);
    }
    this.#lastSigned.set(key, timestamp);
    // Measured from the latest clock reading seen, so a clock stepping back does not count as lead.
    this.#latestNow = Math.max(this.#latestNow, now);
    return { timestamp, lead: timestamp - this.#latestNow };
  }

  /** The request target as it goes on the wire (base path + pathWithQuery), refused if fetch would rewrite it. */
  #target(pathWithQuery: string): string {
    if (typeof pathWithQuery !== 'string' || !pathWithQuery.startsWith('/')) {
      throw new TypeError('pathWithQuery: expected a path starting with "/"');
    }
    if (!/^[\x21-\x7e]*$/.test(pathWithQuery) || pathWithQuery.includes('#')) {
      throw new TypeError('pathWithQuery: expected printable ASCII without spaces or "#"; percent-encode the rest');
    }
    const target = `${this.#basePath}${pathWithQuery}`;
    const url = new URL(`${this.#origin}${target}`);
    // The signature covers the target byte for byte, so a path the URL parser would normalize
    // (dot segments, backslashes, characters it percent-encodes) must fail here, not at the server.
    if (`${url.pathname}${url.search}` !== target) {
      throw new TypeError(
        `pathWithQuery: would be sent as ${url.pathname}${url.search}, not as given; pass it in that form`,
      );
    }
    return target;
  }

  #attempt(verb: string, target: string, bytes: Uint8Array<ArrayBuffer> | null, options: SignedRequestOptions<z.ZodType | undefined>): Promise<unknown> {
    return this.#send(verb, target, bytes, options, 'application/json', (response) => readVigilResponse(response, target, options.schema, verb));
  }

  async #send<T>(
    verb: string,
    target: string,
    bytes: Uint8Array<ArrayBuffer> | null,
    options: RequestOptions,
    accept: string,
    read: (response: Response) => Promise<T>,
  ): Promise<T> {
    const audience = await this.audience(options.signal ? { signal: options.signal } : {});
    const { timestamp, lead } = this.#timestampFor(`${verb} ${target}`);
    // Repeating one request faster than once a second signs each repeat a second later; past
    // MAX_SIGNING_LEAD_S ahead of the clock the request waits, so a busy loop (a validator's
    // claims) never drifts out of the server's freshness window.
    if (lead > MAX_SIGNING_LEAD_S) await sleep((lead - MAX_SIGNING_LEAD_S) * 1000, options.signal);
    const signed = signRequest({
      audience,
      method: verb,
      pathWithQuery: target,
      body: bytes ?? undefined,
      secretKey: this.#keypair.secretKey,
      timestamp,
    });
    const headers: Record<string, string> = {
      accept,
      ...this.#headers,
      ...signedRequestHeaders(signed),
    };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    if (options.requestId) headers[HEADERS.requestId] = options.requestId;
    if (bytes !== null) {
      if (bytes.length > 0) headers['content-type'] = 'application/json';
      headers['content-length'] = String(bytes.length);
    }
    const response = await this.#fetch(`${this.#origin}${target}`, {
      method: verb,
      headers,
      ...(bytes !== null ? { body: bytes } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return read(response);
  }
}
