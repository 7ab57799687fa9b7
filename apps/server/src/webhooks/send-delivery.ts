import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { AddressRefusedError, checkedAddresses, type HostResolver } from './address-policy.js';

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

const agents = {
  http: new http.Agent({ keepAlive: true }),
  https: new https.Agent({ keepAlive: true }),
};

/**
 * POSTs one attempt: no redirects followed (a 3xx is a failed attempt), the whole exchange within
 * `timeoutMs`, and only the first KiB of the answer kept. Never throws: every failure is an outcome.
 */
export async function sendDelivery(request: DeliveryRequest): Promise<DeliveryOutcome> {
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
    const finish = (outcome: Omit<DeliveryOutcome, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, latencyMs: elapsed() });
    };
    const options: http.RequestOptions = {
      method: 'POST',
      headers: { ...request.headers, 'Content-Length': String(request.body.byteLength) },
      agent: secure ? agents.https : agents.http,
      lookup: guardedLookup(request.resolver, !request.allowPrivate),
    };
    const req = (secure ? https : http).request(url, options, (res) => {
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
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${request.timeoutMs} ms`));
    }, request.timeoutMs);
    req.on('error', (error) => {
      const message = error instanceof AddressRefusedError ? `refused: ${error.message}` : error.message || String(error);
      finish({ status: null, error: message, excerpt: null });
    });
    req.end(request.body);
  });
}
