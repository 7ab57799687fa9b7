import http from 'node:http';

/** What the receiver does with one request. */
export type ReceiverAction = { status: number; body?: string; delayMs?: number } | { hang: true } | { hangUntilReleased: true };

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  /** The exact bytes received. */
  raw: Buffer;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** Actions for the next requests, in order; once used up, `fallback` answers. */
  script: ReceiverAction[];
  fallback: ReceiverAction;
  /** The most requests to one path that were open at once. */
  maxConcurrentByPath: Map<string, number>;
  /** Resolves when `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  /** Answers every request held by `hangUntilReleased` with 200. */
  release(): void;
  close(): Promise<void>;
}

/** A real HTTP endpoint on 127.0.0.1 for delivery tests: scripted answers, every request kept byte for byte. */
export async function startWebhookReceiver(fallback: ReceiverAction = { status: 200, body: 'ok' }): Promise<WebhookReceiver> {
  const held: http.ServerResponse[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    received: [],
    script: [],
    fallback,
    maxConcurrentByPath: new Map(),
    waitFor(count, timeoutMs = 20_000) {
      if (receiver.received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver: ${receiver.received.length} of ${count} requests after ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    release() {
      for (const res of held.splice(0)) if (!res.writableEnded) res.writeHead(200).end('released');
    },
    close: () =>
      new Promise((resolve) => {
        for (const res of held.splice(0)) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const open = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    open.set(path, (open.get(path) ?? 0) + 1);
    receiver.maxConcurrentByPath.set(path, Math.max(receiver.maxConcurrentByPath.get(path) ?? 0, open.get(path)!));
    res.on('close', () => open.set(path, open.get(path)! - 1));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.received.push({ headers: req.headers, raw: Buffer.concat(chunks), at: Date.now() });
      for (const w of waiters.filter((w) => receiver.received.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const action = receiver.script.shift() ?? receiver.fallback;
      if ('hang' in action) return;
      if ('hangUntilReleased' in action) {
        held.push(res);
        return;
      }
      const answer = () => res.writeHead(action.status, { 'content-type': 'text/plain; charset=utf-8' }).end(action.body ?? '');
      if (action.delayMs === undefined) answer();
      else setTimeout(answer, action.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as { port: number }).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  return receiver;
}
