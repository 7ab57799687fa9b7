import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real PostgreSQL or Redis, for fault tests: it forwards bytes until told
 * to `resetAll` (every open pair is destroyed with RST, as a crashed server or a cut network does),
 * to `stall` (connections are accepted and bytes are swallowed, as a hung server does) or to
 * `delayAnswers` (the server's bytes reach the client late, in order, as from a slow but live server).
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
  /**
   * From now on, each chunk the server sends is held `delayMs()` milliseconds before the client gets
   * it, never overtaking an earlier chunk of its connection (TCP keeps order). `null` stops delaying.
   * What the client sends still reaches the server at once.
   */
  delayAnswers(delayMs: (() => number) | null): void;
  /** How often `text` occurs in the bytes clients sent to the server, over all connections so far. */
  sentCount(text: string): number;
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
  let answerDelay: (() => number) | null = null;
  // latin1 keeps one character per byte, so a needle split across two chunks is still found.
  const sent: string[] = [];

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
    const sentIndex = sent.push('') - 1;
    client.on('data', (chunk: Buffer) => {
      if (stalled) {
        swallowed += chunk.length;
        return;
      }
      sent[sentIndex] += chunk.toString('latin1');
      upstream.write(chunk);
    });
    // Held answers in arrival order, each with the time it may leave; one timer drains the head.
    const held: { chunk: Buffer; at: number }[] = [];
    const release = () => {
      while (held.length > 0 && held[0]!.at <= Date.now()) {
        const { chunk } = held.shift()!;
        if (!client.destroyed) client.write(chunk);
      }
      if (held.length > 0) setTimeout(release, held[0]!.at - Date.now());
    };
    upstream.on('data', (chunk: Buffer) => {
      if (stalled) {
        swallowed += chunk.length;
        return;
      }
      if (answerDelay === null && held.length === 0) {
        client.write(chunk);
        return;
      }
      const at = Math.max(held.at(-1)?.at ?? 0, Date.now() + (answerDelay?.() ?? 0));
      held.push({ chunk, at });
      if (held.length === 1) setTimeout(release, at - Date.now());
    });
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
    delayAnswers(delayMs) {
      answerDelay = delayMs;
    },
    sentCount(text) {
      let count = 0;
      for (const stream of sent) {
        for (let at = stream.indexOf(text); at >= 0; at = stream.indexOf(text, at + text.length)) count += 1;
      }
      return count;
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
