import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AddressRefusedError, checkedAddresses, type HostResolver } from './address-policy.js';
import { SpanKind, SpanStatusCode, withSpan } from '../../../platform/tracing/index.js';

/** Bytes of an answer's body kept with the attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface DeliveryRequest {
  url: string;
  /** The exact bytes signed and sent. */
  body: Buffer;
  headers: Record<string, string>;
  timeoutMs: number;
  /** VIGIL_WEBHOOK_ALLOW_PRIVATE: skip the address checks (development). */
  allowPrivate: boolean;
  resolver: HostResolver;
}

export interface DeliveryOutcome {
  /** The endpoint's status, or null when none came. */
  status: number | null;
  /** Why no status came (refused address, connect error, timeout), or null. */
  error: string | null;
  /** At most RESPONSE_EXCERPT_BYTES of the body, whole characters only; null when none came. */
  excerpt: string | null;
  latencyMs: number;
}

/** The first `limit` bytes as text, cut before an incomplete character; NUL (which PostgreSQL text refuses) shown as U+FFFD. */
export function excerptOf(bytes: Buffer, limit = RESPONSE_EXCERPT_BYTES): string {
  return new StringDecoder('utf8').write(bytes.subarray(0, limit)).replaceAll('\u0000', '\uFFFD');
}

/**
 * A lookup for node's http(s) that resolves once, refuses the connection when any address is not
 * public, and hands the socket the checked address, so what was checked is what is connected to
 * (a name that resolves differently the second time, DNS rebinding, gains nothing). With the checks
 * off (VIGIL_WEBHOOK_ALLOW_PRIVATE) it only resolves.
 */
function guardedLookup(resolver: HostResolver, check: boolean): LookupFunction {
  return (hostname, options, callback) => {
    (check ? checkedAddresses(hostname, resolver) : resolver(hostname)).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        const usable = wanted.length > 0 ? wanted : addresses;
        if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}

/**
 * The longest a pooled connection is kept idle: below node:http's default server keepAliveTimeout
 * (5 s, which many receivers keep), so the sender gives a connection up before the receiver can
 * close it under a request (the first retry comes 4-6 s after a failure).
 */
export const IDLE_CONNECTION_MS = 4_000;

/** How long before the receiver's announced `Keep-Alive: timeout=N` a pooled connection is given up. */
export const KEEP_ALIVE_MARGIN_MS = 1_000;

/**
 * How long a connection may wait in the pool after an answer carrying `keepAlive` (the
 * `Keep-Alive` header, if any): IDLE_CONNECTION_MS, or less when the receiver announces
 * `timeout=N` seconds (N * 1000 - KEEP_ALIVE_MARGIN_MS); 0 means not to keep it at all.
 */
export function idleConnectionLimitMs(keepAlive: string | undefined): number {
  const announced = keepAlive === undefined ? undefined : /(?:^|[,;\s])timeout\s*=\s*"?(\d+)"?\s*(?:$|[,;])/i.exec(keepAlive)?.[1];
  if (announced === undefined) return IDLE_CONNECTION_MS;
  return Math.max(0, Math.min(IDLE_CONNECTION_MS, Number(announced) * 1000 - KEEP_ALIVE_MARGIN_MS));
}

/** The idle limit each pooled connection's last answer called for (set when the answer arrives). */
const idleLimits = new WeakMap<Duplex, number>();
/** Connections waiting in the pool, whose idle timer retires them. */
const idle = new WeakSet<Duplex>();
const retireOnTimeout = new WeakSet<Duplex>();

/**
 * `agent.keepSocketAlive` of the pools: after node's own bookkeeping (`kept`: false when the
 * answer asked to close), the connection waits in the pool at most its idle limit.
 */
function keepIdle(socket: Duplex, kept: unknown): boolean {
  const limit = idleLimits.get(socket) ?? IDLE_CONNECTION_MS;
  if (kept === false || limit <= 0) return false;
  if (!retireOnTimeout.has(socket)) {
    retireOnTimeout.add(socket);
    socket.on('timeout', () => {
      if (idle.has(socket)) socket.destroy();
    });
  }
  idle.add(socket);
  (socket as Socket).setTimeout(limit);
  return true;
}

/** `agent.reuseSocket`: a connection taken from the pool for a request is no longer timed as idle. */
function takeFromPool(socket: Duplex): void {
  idle.delete(socket);
  (socket as Socket).setTimeout(0);
}

class PoolingHttpAgent extends http.Agent {
  override keepSocketAlive(socket: Duplex): boolean {
    return keepIdle(socket, super.keepSocketAlive(socket));
  }

  override reuseSocket(socket: Duplex, request: http.ClientRequest): void {
    takeFromPool(socket);
    super.reuseSocket(socket, request);
  }
}

class PoolingHttpsAgent extends https.Agent {
  override keepSocketAlive(socket: Duplex): boolean {
    return keepIdle(socket, super.keepSocketAlive(socket));
  }

  override reuseSocket(socket: Duplex, request: http.ClientRequest): void {
    takeFromPool(socket);
    super.reuseSocket(socket, request);
  }
}

/**
 * Keep-alive pools: a connection is reused while it has been idle less than its limit
 * (idleConnectionLimitMs), then closed by the sender.
 */
const agents = {
  http: new PoolingHttpAgent({ keepAlive: true }),
  https: new PoolingHttpsAgent({ keepAlive: true }),
};

/** Errors of a connection that broke (reset, closed: "socket hang up" is ECONNRESET), as opposed to a timeout or a refusal. */
const BROKEN_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * POSTs one attempt: no redirects followed (a 3xx is a failed attempt), the whole exchange within
 * `timeoutMs`, and only the first KiB of the answer kept. Never throws: every failure is an outcome.
 */
export function sendDelivery(request: DeliveryRequest): Promise<DeliveryOutcome> {
  // A CLIENT span per attempt (docs/operations.md, "Tracing"): host and port only, since a
  // receiver's URL may carry a token in its path or query.
  return withSpan(
    'webhook POST',
    SpanKind.CLIENT,
    () => {
      const url = URL.canParse(request.url) ? new URL(request.url) : null;
      return { 'http.request.method': 'POST', 'server.address': url?.hostname ?? '', 'server.port': Number(url?.port || (url?.protocol === 'https:' ? 443 : 80)) };
    },
    async (span) => {
      const outcome = await attempt(request);
      if (span) {
        if (outcome.status !== null) span.setAttribute('http.response.status_code', outcome.status);
        if (outcome.error !== null) span.setAttribute('error.type', outcome.error.slice(0, 200));
        if (outcome.status === null || outcome.status < 200 || outcome.status > 299) span.setStatus({ code: SpanStatusCode.ERROR });
      }
      return outcome;
    },
  );
}

async function attempt(request: DeliveryRequest): Promise<DeliveryOutcome> {
  const started = performance.now();
  const elapsed = () => Math.max(0, Math.round(performance.now() - started));
  const url = new URL(request.url);
  if (!request.allowPrivate) {
    try {
      // An IP literal never goes through the lookup: check it here (a name is checked at connect).
      if (/^[\d.]+$|^\[/.test(url.hostname)) await checkedAddresses(url.hostname, request.resolver);
    } catch (error) {
      return { status: null, error: `refused: ${(error as Error).message}`, excerpt: null, latencyMs: elapsed() };
    }
  }
  const secure = url.protocol === 'https:';
  return new Promise<DeliveryOutcome>((resolve) => {
    let settled = false;
    let timedOut = false;
    let current: http.ClientRequest | undefined;
    const finish = (outcome: Omit<DeliveryOutcome, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, latencyMs: elapsed() });
    };
    // One limit for the whole attempt, a resend on a new connection included (the claim's lease counts on it).
    const timer = setTimeout(() => {
      timedOut = true;
      current?.destroy(new Error(`timed out after ${request.timeoutMs} ms`));
    }, request.timeoutMs);

    /** Sends on a pooled connection, or (`fresh`) on a new one that is not pooled. */
    const send = (fresh: boolean) => {
      const options: http.RequestOptions = {
        method: 'POST',
        headers: { ...request.headers, 'Content-Length': String(request.body.byteLength) },
        // A new connection resolves and checks its address through the lookup, as every connection does.
        agent: fresh ? false : secure ? agents.https : agents.http,
        lookup: guardedLookup(request.resolver, !request.allowPrivate),
      };
      let answered = false;
      let readBefore = 0;
      const req = (secure ? https : http).request(url, options, (res) => {
        answered = true;
        const keepAlive = res.headers['keep-alive'];
        if (!fresh) idleLimits.set(res.socket, idleConnectionLimitMs(Array.isArray(keepAlive) ? keepAlive.join(', ') : keepAlive));
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_EXCERPT_BYTES) {
            chunks.push(chunk);
            kept += chunk.byteLength;
          }
          // Past the excerpt the rest is not needed: stop reading rather than wait for a long body.
          if (kept >= RESPONSE_EXCERPT_BYTES) {
            finish({ status: res.statusCode ?? null, error: null, excerpt: excerptOf(Buffer.concat(chunks)) });
            res.destroy();
          }
        });
        res.on('end', () => finish({ status: res.statusCode ?? null, error: null, excerpt: excerptOf(Buffer.concat(chunks)) }));
        res.on('error', (error) => finish({ status: res.statusCode ?? null, error: `answer cut off: ${error.message}`, excerpt: excerptOf(Buffer.concat(chunks)) }));
      });
      current = req;
      req.on('socket', (socket) => {
        readBefore = socket.bytesRead;
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (settled) return;
        // A pooled connection the receiver closed while it sat idle (its keep-alive timeout ran out as
        // the request went out) breaks before any byte of an answer: the request is sent once more, at
        // once, on a new connection, as HTTP clients do for idempotent requests (node's
        // `req.reusedSocket`). A receiver that had begun to answer, or a new connection, is not retried.
        const stale =
          !fresh && !timedOut && req.reusedSocket && !answered && (req.socket?.bytesRead ?? 0) === readBefore && BROKEN_CONNECTION.has(error.code ?? '');
        if (stale) {
          send(true);
          return;
        }
        const message = error instanceof AddressRefusedError ? `refused: ${error.message}` : error.message || String(error);
        finish({ status: null, error: message, excerpt: null });
      });
      req.end(request.body);
    };
    send(false);
  });
}
