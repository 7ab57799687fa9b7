import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HEADERS } from '@vigil/core';
import { checkFreshness, verifySignedRequest } from '@vigil/crypto';

/** What the server saw, byte for byte, for one request. */
export interface ReceivedRequest {
  method: string;
  /** The raw request target from the request line. */
  target: string;
  body: Buffer;
  headers: IncomingMessage['headers'];
  verified: boolean;
}

export interface SignatureServer {
  baseUrl: string;
  received: ReceivedRequest[];
  /** How often /v1/server-identity was read. */
  readonly identityReads: number;
  close(): Promise<void>;
}

/** The audience the test server verifies for and serves as its identity, unless told otherwise. */
export const TEST_AUDIENCE = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';

export interface SignatureServerOptions {
  /** What /v1/server-identity answers and signatures must be bound to (default TEST_AUDIENCE). */
  audience?: string;
  /** Server clock in Unix seconds; freshness is not checked when absent. */
  nowSeconds?: () => number;
  /** Answers instead of the signature check, e.g. to simulate 503s (index = request number). */
  override?: (index: number, request: ReceivedRequest, res: ServerResponse) => boolean;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function answer(res: ServerResponse, status: number, body: unknown, requestId: string): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': requestId });
  res.end(text);
}

/**
 * A real HTTP server that checks signed requests the way Vigil does (signature over the raw
 * target and the raw body bytes, then freshness, then replay) and echoes what it received.
 */
export async function startSignatureServer(options: SignatureServerOptions = {}): Promise<SignatureServer> {
  const received: ReceivedRequest[] = [];
  const used = new Set<string>();
  let identityReads = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const target = req.url ?? '';
      const audience = options.audience ?? TEST_AUDIENCE;
      if (req.method === 'GET' && target.endsWith('/v1/server-identity')) {
        identityReads += 1;
        return answer(res, 200, { server_hotkey: audience }, 'identity');
      }
      const hotkey = header(req, HEADERS.signedHotkey) ?? '';
      const timestamp = header(req, HEADERS.signedTimestamp) ?? '';
      const signature = header(req, HEADERS.signedSignature) ?? '';
      const verified = verifySignedRequest({
        audience,
        method: req.method ?? '',
        pathWithQuery: target,
        body: new Uint8Array(body),
        hotkey,
        timestamp,
        signature,
      });
      const entry: ReceivedRequest = { method: req.method ?? '', target, body, headers: req.headers, verified };
      const index = received.push(entry) - 1;
      const requestId = `req-${index}`;
      if (options.override?.(index, entry, res)) return;
      if (!verified) return answer(res, 401, { detail: 'invalid request signature' }, requestId);
      if (options.nowSeconds && !checkFreshness(Number(timestamp), options.nowSeconds())) {
        return answer(res, 401, { detail: 'signature timestamp outside freshness window' }, requestId);
      }
      const triple = `${hotkey} ${timestamp} ${signature}`;
      if (used.has(triple)) return answer(res, 401, { detail: 'signature already used (replay)', code: 'signature_replayed' }, requestId);
      used.add(triple);
      let json: unknown = null;
      if (body.length > 0) json = JSON.parse(body.toString('utf8'));
      answer(res, 200, { ok: true, hotkey, method: req.method, target, body: json, bytes: body.length }, requestId);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    get identityReads() {
      return identityReads;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
