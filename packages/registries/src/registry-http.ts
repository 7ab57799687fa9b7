import { createHash, type Hash } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { ConcurrencyLimit } from './concurrency-limit.js';
import type { ResolvedRegistrySettings } from './registry-settings.js';
import { checkedLookup, refusedTarget } from './refused-target.js';
import { retryDelayMs } from './retry-delay.js';
import { TokenBucket } from './token-bucket.js';

/** Why a registry could not answer, after every retry (docs/registries.md, "States"). */
export type UnavailableReason = 'connect_failed' | 'timeout' | 'reset' | 'truncated' | 'invalid_response' | 'server_error' | 'rate_limited';

export type DigestAlgorithm = 'sha512' | 'sha1' | 'sha256';

export type HttpResult =
  | {
      kind: 'response';
      status: number;
      headers: IncomingHttpHeaders;
      /** The whole body; a 2xx body only ever arrives complete. */
      body: Buffer;
      /** Digests of the body, computed while it streamed in (2xx only). */
      digests: Partial<Record<DigestAlgorithm, Buffer>>;
      attempts: number;
    }
  | { kind: 'unavailable'; reason: UnavailableReason; detail: string; attempts: number }
  | { kind: 'too_large'; limitBytes: number; declaredBytes: number | null; attempts: number };

export interface HttpRequestOptions {
  headers?: Record<string, string>;
  maxBytes: number;
  digests?: readonly DigestAlgorithm[];
}

type Attempt =
  | { kind: 'done'; result: HttpResult & { kind: 'response' | 'too_large' } }
  | { kind: 'redirect'; location: string }
  | { kind: 'fault'; reason: UnavailableReason; detail: string; retryAfter?: string };

/** What a registry connector has done so far; for `registries status` and the bench. */
export interface RegistryCounters {
  requests: number;
  retries: number;
  notModified: number;
  bytesReceived: number;
  integrityMismatches: number;
  tooLarge: number;
  unavailable: number;
}

const MAX_REDIRECTS = 5;
/** Error bodies are read for a message only; a registry's 500 page is not worth more. */
const ERROR_BODY_BYTES = 16 * 1024;

/**
 * One registry's HTTP side: every request passes the rate limit and the concurrency bound, gets a
 * connect timeout and a whole-answer timeout, and is retried with backoff on faults that may pass
 * (5xx, 429, network). It never throws for what the network does: the caller gets a typed result.
 */
export class RegistryHttp {
  readonly counters: RegistryCounters = { requests: 0, retries: 0, notModified: 0, bytesReceived: 0, integrityMismatches: 0, tooLarge: 0, unavailable: 0 };
  private readonly bucket: TokenBucket;
  private readonly limit: ConcurrencyLimit;
  private readonly httpAgent: HttpAgent;
  private readonly httpsAgent: HttpsAgent;
  private readonly origin: string;

  constructor(
    readonly settings: ResolvedRegistrySettings,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.bucket = new TokenBucket(settings.requestsPerSecond, settings.burst);
    this.limit = new ConcurrencyLimit(settings.concurrency);
    this.httpAgent = new HttpAgent({ keepAlive: true, maxSockets: settings.concurrency });
    this.httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: settings.concurrency });
    this.origin = new URL(settings.url).origin;
  }

  get inFlight(): number {
    return this.limit.inFlight;
  }

  /** An absolute URL under the registry's base (`path` starts with `/`). */
  url(path: string): string {
    return this.settings.url + path;
  }

  async get(url: string, options: HttpRequestOptions): Promise<HttpResult> {
    let target = url;
    let attempts = 0;
    let redirects = 0;
    for (;;) {
      // A packument or a redirect may name any URL; only HTTP is fetched (file:, data:… never).
      if (!isHttpUrl(target)) return this.unavailable('invalid_response', `not an http(s) URL: ${JSON.stringify(target.slice(0, 200))}`, attempts);
      const refused = refusedTarget(new URL(target));
      if (refused !== null) return this.unavailable('invalid_response', `never requested: ${refused}`, attempts);
      attempts += 1;
      await this.bucket.take();
      this.counters.requests += 1;
      const attempt = await this.limit.run(() => this.attempt(target, options));
      if (attempt.kind === 'done') {
        if (attempt.result.kind === 'too_large') this.counters.tooLarge += 1;
        return { ...attempt.result, attempts };
      }
      if (attempt.kind === 'redirect') {
        redirects += 1;
        attempts -= 1;
        if (redirects > MAX_REDIRECTS) return this.unavailable('server_error', `more than ${MAX_REDIRECTS} redirects from ${url}`, attempts + 1);
        try {
          target = new URL(attempt.location, target).href;
        } catch {
          return this.unavailable('invalid_response', `a redirect to something that is not a URL: ${JSON.stringify(attempt.location.slice(0, 200))}`, attempts + 1);
        }
        if (!isHttpUrl(target)) return this.unavailable('invalid_response', `a redirect to a URL that is not http(s): ${JSON.stringify(target.slice(0, 200))}`, attempts + 1);
        const refusedHop = refusedTarget(new URL(target));
        if (refusedHop !== null) return this.unavailable('invalid_response', `a redirect that is never requested: ${refusedHop}`, attempts + 1);
        continue;
      }
      const retry = attempts;
      if (retry > this.settings.retries) return this.unavailable(attempt.reason, attempt.detail, attempts);
      const delay = retryDelayMs(retry, { baseMs: this.settings.backoffBaseMs, maxMs: this.settings.backoffMaxMs, retryAfter: attempt.retryAfter });
      // The registry asked for a longer pause than we wait: it is limiting us, whatever the status.
      if (delay === null) return this.unavailable('rate_limited', `${attempt.detail}; Retry-After ${attempt.retryAfter} is longer than ${this.settings.backoffMaxMs} ms`, attempts);
      this.counters.retries += 1;
      await this.sleep(delay);
    }
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private unavailable(reason: UnavailableReason, detail: string, attempts: number): HttpResult {
    this.counters.unavailable += 1;
    return { kind: 'unavailable', reason, detail, attempts };
  }

  private attempt(url: string, options: HttpRequestOptions): Promise<Attempt> {
    const target = new URL(url);
    const headers: Record<string, string> = { 'user-agent': 'vigil-registries', 'accept-encoding': 'identity', ...options.headers };
    // The token belongs to the configured registry: a tarball served from another host gets none.
    if (this.settings.token !== null && target.origin === this.origin) headers.authorization = `Bearer ${this.settings.token}`;
    const https = target.protocol === 'https:';
    return new Promise<Attempt>((resolve) => {
      let settled = false;
      let attachedSocket: Socket | null = null;
      let phase: 'connect' | 'headers' | 'body' = 'connect';
      const finish = (attempt: Attempt) => {
        if (settled) return;
        settled = true;
        // Kept-alive sockets serve many requests: each one's listener goes with it.
        attachedSocket?.removeListener('error', onSocketError);
        clearTimeout(whole);
        clearTimeout(connectTimer);
        resolve(attempt);
      };
      const fault = (reason: UnavailableReason, detail: string, retryAfter?: string) => finish({ kind: 'fault', reason, detail, ...(retryAfter === undefined ? {} : { retryAfter }) });
      const req = (https ? httpsRequest : httpRequest)(target, { method: 'GET', headers, agent: https ? this.httpsAgent : this.httpAgent, lookup: checkedLookup });
      let connectTimer: ReturnType<typeof setTimeout> | undefined;
      const whole = setTimeout(() => {
        fault('timeout', `no complete answer from ${target.host} within ${this.settings.responseTimeoutMs} ms`);
        req.destroy();
      }, this.settings.responseTimeoutMs);
      // A reset reaches the socket as ECONNRESET; the response only says "aborted", as for a clean early close.
      let socketReset = false;
      const onSocketError = (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNRESET') socketReset = true;
      };
      req.on('socket', (socket) => {
        attachedSocket = socket;
        socket.on('error', onSocketError);
        if (!socket.connecting) {
          // A kept-alive socket: already connected.
          phase = 'headers';
          return;
        }
        connectTimer = setTimeout(() => {
          fault('timeout', `no connection to ${target.host} within ${this.settings.connectTimeoutMs} ms`);
          req.destroy();
        }, this.settings.connectTimeoutMs);
        socket.once('connect', () => {
          clearTimeout(connectTimer);
          phase = 'headers';
        });
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (settled) return;
        fault(classify(error, phase), `${target.host}: ${error.code ?? error.message}`);
      });
      req.on('response', (res: IncomingMessage) => {
        phase = 'body';
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && status !== 304 && res.headers.location) {
          res.resume();
          finish({ kind: 'redirect', location: res.headers.location });
          return;
        }
        const ok = status >= 200 && status < 300;
        const declared = res.headers['content-length'] === undefined ? null : Number(res.headers['content-length']);
        if (ok && declared !== null && declared > options.maxBytes) {
          // Refused before reading: the answer says it is larger than the limit.
          finish({ kind: 'done', result: { kind: 'too_large', limitBytes: options.maxBytes, declaredBytes: declared, attempts: 0 } });
          req.destroy();
          return;
        }
        const hashes: [DigestAlgorithm, Hash][] = ok ? (options.digests ?? []).map((algorithm) => [algorithm, createHash(algorithm)]) : [];
        const chunks: Buffer[] = [];
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          received += chunk.length;
          this.counters.bytesReceived += chunk.length;
          if (ok && received > options.maxBytes) {
            // The limit holds on bytes that arrive, whatever the headers or the packument said.
            finish({ kind: 'done', result: { kind: 'too_large', limitBytes: options.maxBytes, declaredBytes: declared, attempts: 0 } });
            req.destroy();
            return;
          }
          if (!ok && received > ERROR_BODY_BYTES) return;
          for (const [, hash] of hashes) hash.update(chunk);
          chunks.push(chunk);
        });
        res.on('error', (error: NodeJS.ErrnoException) => {
          // The socket's own error event comes in the same tick or the next one.
          setImmediate(() => {
            if (!settled) fault(socketReset ? 'reset' : classify(error, 'body'), `${target.host}: answer cut after ${received} bytes (${socketReset ? 'connection reset' : (error.code ?? error.message)})`);
          });
        });
        res.on('end', () => {
          if (settled) return;
          if (!res.complete) {
            fault('truncated', `${target.host}: answer ended after ${received} bytes${declared === null ? '' : ` of ${declared}`}`);
            return;
          }
          if (status >= 500) {
            // A 503 with Retry-After (maintenance, overload) is honoured as a 429's is.
            fault('server_error', `${target.host} answered ${status}`, headerValue(res.headers['retry-after']));
            return;
          }
          if (status === 429) {
            fault('rate_limited', `${target.host} answered 429`, headerValue(res.headers['retry-after']));
            return;
          }
          const digests: Partial<Record<DigestAlgorithm, Buffer>> = {};
          for (const [algorithm, hash] of hashes) digests[algorithm] = hash.digest();
          finish({ kind: 'done', result: { kind: 'response', status, headers: res.headers, body: Buffer.concat(chunks), digests, attempts: 0 } });
        });
        res.on('close', () => {
          if (!settled && !res.complete) setImmediate(() => fault(socketReset ? 'reset' : 'truncated', `${target.host}: connection closed after ${received} bytes${declared === null ? '' : ` of ${declared}`}`));
        });
      });
      req.end();
    });
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const parsed = new URL(value);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function classify(error: NodeJS.ErrnoException, phase: 'connect' | 'headers' | 'body'): UnavailableReason {
  if (error.code === 'ETIMEDOUT') return 'timeout';
  // llhttp's codes: an answer that breaks HTTP (bytes beyond its Content-Length, a bad status line…).
  if (error.code?.startsWith('HPE_')) return 'invalid_response';
  if (phase === 'connect' && error.code !== 'ECONNRESET') return 'connect_failed';
  if (phase === 'body') return error.message === 'aborted' ? 'truncated' : 'reset';
  return error.code === 'ECONNREFUSED' || error.code === 'ENOTFOUND' || error.code === 'EHOSTUNREACH' || error.code === 'EAI_AGAIN' ? 'connect_failed' : 'reset';
}
