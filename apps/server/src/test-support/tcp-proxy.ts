import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real PostgreSQL or Redis, for fault tests: it forwards bytes until told
 * to `resetAll` (every open pair is destroyed with RST, as a crashed server or a cut network does) or
 * to `stall` (connections are accepted and bytes are swallowed, as a hung server does).
 */
export interface TcpProxy {
  /** `host:port` to point a client at. */
  readonly address: string;
  readonly port: number;
  /** Destroys every open connection pair with a reset; new connections are still forwarded. */
  resetAll(): void;
  /** From now on, accepted connections and open ones forward nothing in either direction. */
  stall(): void;
  /** Forward again (open stalled connections stay stalled; new ones flow). */
  resume(): void;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Bytes that arrived while stalled and were swallowed: proof that a query is in flight. */
  readonly swallowed: number;
  /** Resolves once some bytes were swallowed while stalled (a query hangs), or after `timeoutMs`. */
  untilSwallowed(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let stalled = false;
  let accepted = 0;
  let swallowed = 0;

  const server: Server = createServer((client) => {
    accepted += 1;
    client.on('error', () => {});
    if (stalled) {
      // Accept and never answer: the client sees an open connection that stays silent.
      client.on('data', (chunk: Buffer) => {
        swallowed += chunk.length;
      });
      pairs.add([client, client]);
      return;
    }
    const upstream = createConnection(target);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (!stalled) to.write(chunk);
        else swallowed += chunk.length;
      });
    forward(client, upstream);
    forward(upstream, client);
    const done = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', done);
    upstream.on('close', done);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  return {
    address: `127.0.0.1:${port}`,
    port,
    get accepted() {
      return accepted;
    },
    get swallowed() {
      return swallowed;
    },
    async untilSwallowed(timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      const start = swallowed;
      while (swallowed === start && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      return swallowed > start;
    },
    resetAll() {
      for (const [client, upstream] of pairs) {
        client.resetAndDestroy();
        if (upstream !== client) upstream.resetAndDestroy();
      }
      pairs.clear();
    },
    stall() {
      stalled = true;
    },
    resume() {
      stalled = false;
    },
    async close() {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
