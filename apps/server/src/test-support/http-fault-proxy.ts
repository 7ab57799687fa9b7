import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What the proxy does with the next requests: forward them (`pass`), answer 500 without asking the
 * server (`error500`), forward but cut each answer's body in half and then the connection, its
 * Content-Length still announcing the whole (`truncate`), or forward but replace the body's bytes
 * by others of the same length (`corrupt`, a store that serves rotten bytes with a 200), or
 * forward the headers and the first chunk of a GET's body and then nothing (`stallBody`), or answer
 * 500 to server-side copies (`CopyObject`, the `x-amz-copy-source` header) only (`error500OnCopy`).
 */
export type HttpFaultMode = 'pass' | 'error500' | 'truncate' | 'corrupt' | 'stallBody' | 'error500OnCopy';

export interface HttpFaultProxy {
  /** `http://127.0.0.1:<port>`. */
  readonly endpoint: string;
  mode: HttpFaultMode;
  /** Requests seen so far, by method. */
  readonly requests: { method: string; url: string }[];
  close(): Promise<void>;
}

/** An HTTP proxy in front of one server (the S3 stand-in) that injects answer faults for tests. */
export async function startHttpFaultProxy(target: { host: string; port: number }): Promise<HttpFaultProxy> {
  const sockets = new Set<Socket>();
  const state: { mode: HttpFaultMode; requests: { method: string; url: string }[] } = { mode: 'pass', requests: [] };
  const server: Server = createServer((incoming, outgoing) => {
    state.requests.push({ method: incoming.method ?? '', url: incoming.url ?? '' });
    const mode = state.mode;
    if (mode === 'error500' || (mode === 'error500OnCopy' && incoming.headers['x-amz-copy-source'] !== undefined)) {
      incoming.resume();
      outgoing.writeHead(500, { 'content-type': 'application/xml' });
      outgoing.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>injected by the fault proxy</Message></Error>');
      return;
    }
    // The Host header is forwarded as sent: it is part of the request's signature.
    const upstream = request({ host: target.host, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer: IncomingMessage) => {
      const length = Number(answer.headers['content-length'] ?? 0);
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      if (mode === 'truncate' && length > 1 && incoming.method === 'GET') {
        let sent = 0;
        answer.on('data', (chunk: Buffer) => {
          const room = Math.floor(length / 2) - sent;
          if (room > 0) outgoing.write(chunk.subarray(0, room));
          sent += Math.min(room > 0 ? room : 0, chunk.length);
          if (sent >= Math.floor(length / 2)) outgoing.socket?.destroy();
        });
        return;
      }
      if (mode === 'stallBody' && incoming.method === 'GET') {
        answer.once('data', (chunk: Buffer) => {
          outgoing.write(chunk.subarray(0, 1));
          answer.pause();
        });
        return;
      }
      if (mode === 'corrupt' && incoming.method === 'GET') {
        answer.on('data', (chunk: Buffer) => outgoing.write(Buffer.from(chunk.map((b) => b ^ 0xff))));
        answer.on('end', () => outgoing.end());
        return;
      }
      answer.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.socket?.destroy());
    incoming.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(mode: HttpFaultMode) {
      state.mode = mode;
    },
    requests: state.requests,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
