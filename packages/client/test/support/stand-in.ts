import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface StandIn {
  baseUrl: string;
  seen: Seen[];
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => resolve(body));
  });
}

/** A local HTTP server answering each request with `answer(index, request, res)`: scripted statuses for retry tests. */
export async function startStandIn(answer: (index: number, seen: Seen, res: ServerResponse) => void): Promise<StandIn> {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    // Counted when it arrives, before its body: a request the client gives up on before the body has
    // been read (a timeout on a loaded machine) never ends, and was missing from `seen`.
    const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' };
    const index = seen.push(entry) - 1;
    entry.body = await readBody(req);
    answer(index, entry, res);
  });
  return { baseUrl: await listen(server), seen, close: closer(server) };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `stand-in-${status}`, ...headers });
  res.end(JSON.stringify(body));
}

/**
 * A reverse proxy in front of a real server that forwards every request and, when `drop` says so,
 * lets the upstream do the work and then cuts the client's connection instead of answering: the
 * answer is lost, as when a network fails after the server committed.
 */
export async function startLossyProxy(upstream: string, drop: (index: number, seen: Seen) => boolean): Promise<StandIn> {
  const seen: Seen[] = [];
  const target = new URL(upstream);
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
    const index = seen.push(entry) - 1;
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (answer: IncomingMessage) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          if (drop(index, entry)) {
            req.socket.destroy();
            return;
          }
          (res as ServerResponse).writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(chunks));
        });
      },
    );
    forward.end(body);
  });
  return { baseUrl: await listen(server), seen, close: closer(server) };
}
