import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { MAX_MESSAGE_BYTES } from './schemas.js';
import { createVigilMcpServer, type VigilMcpOptions } from './vigil-mcp-server.js';

/** The path the Streamable HTTP endpoint answers on. */
export const MCP_HTTP_PATH = '/mcp';
export const DEFAULT_MCP_HTTP_PORT = 8765;

export interface HttpServeOptions extends VigilMcpOptions {
  /** Default 127.0.0.1: only this machine reaches the server, which calls Vigil with its own API key. */
  host?: string;
  /** Default 8765; 0 picks a free port (see `url`). */
  port?: number;
  /**
   * A bearer token every request must carry (`Authorization: Bearer <token>`). Required to bind
   * anything but a loopback address: whoever reaches the port uses this server's Vigil API key.
   */
  token?: string | null;
}

export interface HttpMcpServer {
  /** `http://<host>:<port>/mcp` */
  url: string;
  port: number;
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || (isIP(host) === 4 && host.startsWith('127.'));
}

/** JSON-RPC's code for a body that is not JSON; every other refusal of this server uses -32000. */
const PARSE_ERROR = -32700;

function jsonRpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The credentials of `Authorization: Bearer <token>`; the scheme in any letter case (RFC 9110, 11.1). */
function bearerToken(header: string): string | null {
  const match = /^bearer +(\S+) *$/i.exec(header);
  return match ? match[1]! : null;
}

/** How long `close()` lets requests in flight finish before it cuts their connections. */
export const HTTP_CLOSE_GRACE_MS = 5_000;

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The body as JSON, at most MAX_MESSAGE_BYTES; a `Error` with the status to answer otherwise. */
async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  // A declared length over the limit is refused before a byte of the body is read.
  if (Number(req.headers['content-length'] ?? 0) > MAX_MESSAGE_BYTES) throw Object.assign(new Error(`request body larger than ${MAX_MESSAGE_BYTES} bytes`), { status: 413 });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_MESSAGE_BYTES) throw Object.assign(new Error(`request body larger than ${MAX_MESSAGE_BYTES} bytes`), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (err) {
    throw Object.assign(new Error(`Parse error: ${(err as Error).message}`), { status: 400, code: PARSE_ERROR });
  }
}

/**
 * Serves the MCP server over Streamable HTTP on `POST /mcp`, stateless: each request gets its own
 * server and transport (no session to keep, nothing to leak between clients), answered as JSON.
 * DNS rebinding is refused: on a loopback address only Host headers naming a loopback host are
 * served, so a web page in the user's browser cannot reach the server through a name it controls.
 */
export async function serveHttp(options: HttpServeOptions): Promise<HttpMcpServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? DEFAULT_MCP_HTTP_PORT;
  const token = options.token ?? null;
  const loopback = isLoopbackHost(host);
  // Malformed options (key, base URL) are refused now, not answered as an error on every request.
  createVigilMcpServer(options);
  if (!loopback && token === null) throw new Error(`--host ${host}: not a loopback address; set VIGIL_MCP_HTTP_TOKEN so that only clients sending it (Authorization: Bearer …) can use this server's Vigil API key`);

  /** Responses not yet finished: on close, told to close their connection once answered. */
  const inFlight = new Set<ServerResponse>();
  const http = createServer((req, res) => {
    inFlight.add(res);
    res.on('close', () => inFlight.delete(res));
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== MCP_HTTP_PATH) return jsonRpcError(res, 404, `not found: the MCP endpoint is ${MCP_HTTP_PATH}`);
      if (loopback) {
        const hostname = (req.headers.host ?? '').replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
        if (!isLoopbackHost(hostname)) return jsonRpcError(res, 403, `forbidden: Host ${JSON.stringify(req.headers.host ?? '')} is not a loopback host`);
      }
      if (token !== null) {
        const given = bearerToken(req.headers.authorization ?? '');
        if (given === null || !sameToken(given, token)) return jsonRpcError(res, 401, 'unauthorized: send Authorization: Bearer <VIGIL_MCP_HTTP_TOKEN>', { 'www-authenticate': 'Bearer' });
      }
      // Stateless: no session to resume with GET (server-sent events) or end with DELETE.
      if (req.method !== 'POST') return jsonRpcError(res, 405, 'method not allowed: this server is stateless; send JSON-RPC with POST', { allow: 'POST' });
      let body: unknown;
      try {
        body = await readJsonBody(req);
      } catch (err) {
        const { status, code } = err as { status?: number; code?: number };
        return jsonRpcError(res, status ?? 400, (err as Error).message, {}, code);
      }
      const server = createVigilMcpServer(options);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((err: unknown) => jsonRpcError(res, 500, `internal error: ${(err as Error).message}`));
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const bound = (http.address() as { port: number }).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}${MCP_HTTP_PATH}`,
    port: bound,
    // Requests in flight get their answer (at most HTTP_CLOSE_GRACE_MS); idle connections close at once.
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
        const cut = setTimeout(() => http.closeAllConnections(), HTTP_CLOSE_GRACE_MS);
        http.close(() => {
          clearTimeout(cut);
          resolve();
        });
        http.closeIdleConnections();
      }),
  };
}
