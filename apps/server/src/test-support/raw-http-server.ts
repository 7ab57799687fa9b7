import net from 'node:net';

/** One request as a raw TCP server saw it: which connection (from 1) and which request on it (from 1). */
export interface RawRequest {
  connection: number;
  /** The request's place on its connection: 2 and above arrived on a reused connection. */
  onConnection: number;
  head: string;
  body: Buffer;
}

/** What the server does with a request: answer it, close the connection without a byte, or write half a status line and close. */
export type RawAction = 'answer' | 'close' | 'partial';

export interface RawHttpServer {
  url: string;
  requests: RawRequest[];
  connections: number;
  close(): Promise<void>;
}

const ANSWER = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok';

/**
 * An HTTP/1.1 server on 127.0.0.1 written on node:net, so a test decides what happens on the wire
 * that node:http would not do: closing a kept-alive connection the moment the next request arrives
 * (what a receiver whose idle timeout ran out does), without answering it.
 */
export async function startRawHttpServer(decide: (request: RawRequest) => RawAction): Promise<RawHttpServer> {
  const sockets = new Set<net.Socket>();
  const state: RawHttpServer = {
    url: '',
    requests: [],
    connections: 0,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const connection = ++state.connections;
    let onConnection = 0;
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffered.subarray(0, end).toString('latin1');
        const length = Number(/^content-length:\s*(\d+)/im.exec(head)?.[1] ?? 0);
        if (buffered.byteLength < end + 4 + length) return;
        const request: RawRequest = { connection, onConnection: ++onConnection, head, body: buffered.subarray(end + 4, end + 4 + length) };
        buffered = buffered.subarray(end + 4 + length);
        state.requests.push(request);
        const action = decide(request);
        if (action === 'close') {
          socket.destroy();
          return;
        }
        if (action === 'partial') {
          socket.end('HTTP/1.1 200');
          return;
        }
        socket.write(ANSWER);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hooks`;
  return state;
}

/** A request's header value (case-insensitive name), or undefined. */
export function rawHeader(request: RawRequest, name: string): string | undefined {
  for (const line of request.head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === name.toLowerCase()) return line.slice(colon + 1).trim();
  }
  return undefined;
}
