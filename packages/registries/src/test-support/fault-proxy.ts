import { request, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What the proxy does to a request it applies to (docs/registries.md, "Failure modes"). */
export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string; location?: string }
  /** Accepts the request and never answers. */
  | { kind: 'hang' }
  /** Answers normally, `ms` late. */
  | { kind: 'delay'; ms: number }
  /** Sends the headers and `afterBytes` of the body, then resets the connection (RST). */
  | { kind: 'reset_mid_body'; afterBytes: number }
  /** Sends the true Content-Length and `keepBytes` of the body, then closes cleanly (FIN). */
  | { kind: 'truncate'; keepBytes: number }
  /** Sends the whole body under a Content-Length of `value` (a lie in either direction). */
  | { kind: 'content_length'; value: number }
  /** Sends the whole body chunked, without any Content-Length. */
  | { kind: 'chunked' }
  /** Rewrites a JSON answer. */
  | { kind: 'rewrite_json'; edit: (doc: Record<string, unknown>) => void };

export interface FaultProxy {
  readonly url: string;
  /** Applies `fault` to the next `times` matching requests (all of them by default); null clears. */
  setFault(fault: Fault | null, options?: { match?: (path: string) => boolean; times?: number }): void;
  /** Every request seen: path and arrival time in ms, for retry and backoff checks. */
  readonly seen: { path: string; at: number }[];
  /** The most requests that were open at once since the last `resetPeak`. */
  readonly peakInFlight: number;
  resetPeak(): void;
  /** Ends every request a `hang` fault is holding by resetting its connection (RST). */
  releaseHung(): void;
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of a real registry that injects faults at the socket level (raw status
 * lines, resets, early closes, lying headers). It forwards the client's Host header, so the
 * registry writes tarball URLs that point back at the proxy and downloads pass through it too.
 */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  const seen: { path: string; at: number }[] = [];
  let fault: Fault | null = null;
  let match: (path: string) => boolean = () => true;
  let remaining = Infinity;
  let inFlight = 0;
  let peakInFlight = 0;
  const hung = new Set<Socket>();

  const forward = (req: IncomingMessage): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const out = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      out.on('error', reject);
      req.pipe(out);
    });

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    seen.push({ path, at: performance.now() });
    inFlight += 1;
    peakInFlight = Math.max(peakInFlight, inFlight);
    // 'finish' when the answer is handed to the socket (before the client can read it and send the next one); 'close' for raw answers.
    let open = true;
    const done = () => {
      if (open) inFlight -= 1;
      open = false;
    };
    res.on('finish', done);
    res.on('close', done);
    let active: Fault | null = null;
    if (fault !== null && remaining > 0 && match(path)) {
      active = fault;
      remaining -= 1;
    }
    if (active?.kind === 'hang') {
      const socket = req.socket;
      hung.add(socket);
      socket.once('close', () => hung.delete(socket));
      return;
    }
    const delay = active?.kind === 'delay' ? active.ms : 0;
    if (active?.kind === 'delay') active = null;
    if (active?.kind === 'status') {
      res.writeHead(active.status, {
        'content-type': 'text/plain',
        ...(active.retryAfter === undefined ? {} : { 'retry-after': active.retryAfter }),
        ...(active.location === undefined ? {} : { location: active.location }),
      });
      res.end(`fault ${active.status}`);
      return;
    }
    const answer = delay === 0 ? forward(req) : new Promise<void>((resolve) => setTimeout(resolve, delay)).then(() => forward(req));
    answer.then(
      ({ status, headers, body }) => {
        const socket = res.socket!;
        const head = (length: number | null, extra = '') =>
          `HTTP/1.1 ${status} X\r\n${headers['content-type'] ? `content-type: ${headers['content-type']}\r\n` : ''}${headers.etag ? `etag: ${headers.etag}\r\n` : ''}${length === null ? 'transfer-encoding: chunked\r\n' : `content-length: ${length}\r\n`}connection: close\r\n${extra}\r\n`;
        if (active === null || status !== 200) {
          const { 'transfer-encoding': _te, connection: _c, 'content-length': _cl, ...rest } = headers;
          res.writeHead(status, { ...rest, 'content-length': String(body.length) });
          res.end(body);
          return;
        }
        switch (active.kind) {
          case 'reset_mid_body':
            socket.write(head(body.length));
            // Once the bytes are out: a reset with unsent data in flight reaches the client as a clean close.
            socket.write(body.subarray(0, active.afterBytes), () => setTimeout(() => socket.resetAndDestroy(), 20));
            return;
          case 'truncate':
            socket.write(head(body.length));
            socket.end(body.subarray(0, active.keepBytes));
            return;
          case 'content_length':
            socket.write(head(active.value));
            socket.end(body);
            return;
          case 'chunked':
            socket.write(head(null));
            for (let at = 0; at < body.length; at += 1024) {
              const piece = body.subarray(at, at + 1024);
              socket.write(`${piece.length.toString(16)}\r\n`);
              socket.write(piece);
              socket.write('\r\n');
            }
            socket.end('0\r\n\r\n');
            return;
          case 'rewrite_json': {
            const doc = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
            active.edit(doc);
            const text = Buffer.from(JSON.stringify(doc));
            res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(text.length) });
            res.end(text);
            return;
          }
        }
      },
      () => {
        res.writeHead(502);
        res.end();
      },
    );
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    get peakInFlight() {
      return peakInFlight;
    },
    resetPeak() {
      peakInFlight = inFlight;
    },
    releaseHung() {
      for (const socket of hung) socket.resetAndDestroy();
      hung.clear();
    },
    setFault(next, options = {}) {
      fault = next;
      match = options.match ?? (() => true);
      remaining = options.times ?? Infinity;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
