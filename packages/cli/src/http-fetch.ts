import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { LightHeaders, LightResponse } from './light-response.js';

/**
 * The fetch `vigil` sends its requests with: Node's own `fetch` costs about 0.35 s of CPU the first
 * time it is called in a process (it compiles its HTTP client), more than a whole public read
 * otherwise costs, and even its `Headers` and `Response` classes load that client, about 60 ms
 * (docs/benchmarks.md, "Command-line start-up"). This one sends over node:http and node:https and
 * answers a LightResponse (src/light-response.ts), the part of a `Response` that is read: redirects
 * are followed as fetch follows them, a compressed answer is decompressed, a failure rejects with
 * fetch's `TypeError('fetch failed')` and the socket error as `cause`, the signal aborts the
 * request and the reading of its body. Anything but a string body (an upload's stream or Blob)
 * goes to `fallback`.
 */
export function lightFetch(fallback: () => typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init = {}) => {
    const plain = typeof input === 'string' || input instanceof URL;
    const body = init.body ?? undefined;
    if (!plain || (body !== undefined && typeof body !== 'string')) return fallback()(input, init);
    const url = new URL(input);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fallback()(input, init);
    return send(url, (init.method ?? 'GET').toUpperCase(), requestHeaders(init.headers), body, init.signal ?? undefined, 0);
  };
}

const MAX_REDIRECTS = 20;

async function send(url: URL, method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal | undefined, redirects: number): Promise<Response> {
  signal?.throwIfAborted();
  const request = url.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  const message = await new Promise<IncomingMessage>((resolve, reject) => {
    const options: RequestOptions = { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } };
    if (signal) options.signal = signal;
    const req = request(url, options, resolve);
    req.on('error', (error) => reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error })));
    req.end(body);
  });
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    message.on('data', (chunk: Buffer) => chunks.push(chunk));
    message.on('end', resolve);
    message.on('error', (error) => reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error })));
    message.on('aborted', () => reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: new Error('the answer ended early') })));
  });
  const status = message.statusCode ?? 0;
  const location = message.headers.location;
  if ([301, 302, 303, 307, 308].includes(status) && location !== undefined) {
    if (redirects >= MAX_REDIRECTS) throw new TypeError('fetch failed', { cause: new Error('redirect count exceeded') });
    // As fetch: 303, and 301/302 of a POST, continue as a GET without the body.
    const asGet = status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST';
    const next = new URL(location, url);
    const nextHeaders = { ...headers };
    if (asGet) delete nextHeaders['content-type'];
    if (next.origin !== url.origin) delete nextHeaders.authorization;
    return send(next, asGet ? 'GET' : method, nextHeaders, asGet ? undefined : body, signal, redirects + 1);
  }
  const answerHeaders = new LightHeaders();
  for (const [name, value] of Object.entries(message.headers)) {
    if (Array.isArray(value)) for (const v of value) answerHeaders.append(name, v);
    else if (value !== undefined) answerHeaders.append(name, value);
  }
  let bytes: Buffer = Buffer.concat(chunks);
  const encoding = (message.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'deflate' || encoding === 'br') {
    const zlib = await import('node:zlib');
    bytes = encoding === 'gzip' ? zlib.gunzipSync(bytes) : encoding === 'deflate' ? zlib.inflateSync(bytes) : zlib.brotliDecompressSync(bytes);
  }
  const empty = method === 'HEAD' || status === 204 || status === 205 || status === 304;
  return new LightResponse(empty ? null : new Uint8Array(bytes), status, message.statusMessage ?? '', answerHeaders, url.href, redirects > 0) as unknown as Response;
}

/**
 * The request's headers by lower-case name, from any form fetch takes (a record, pairs, a Headers),
 * without constructing a `Headers`; a repeated name is joined by ", " as fetch joins it.
 */
function requestHeaders(init: HeadersInit | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  const add = (name: string, value: string): void => {
    const key = name.toLowerCase();
    const trimmed = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
    headers[key] = key in headers ? `${headers[key]}, ${trimmed}` : trimmed;
  };
  if (init === undefined) return headers;
  if (Array.isArray(init)) for (const [name, value] of init as [string, string][]) add(name, value);
  else if (typeof (init as { forEach?: unknown }).forEach === 'function') (init as Headers).forEach((value, name) => add(name, value));
  else for (const [name, value] of Object.entries(init)) add(name, value as string);
  return headers;
}
