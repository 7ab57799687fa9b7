import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsListener {
  /** `http://<host>:<port>/metrics`, the port as bound (`--metrics-port 0` picks a free one). */
  url: string;
  close(): Promise<void>;
}

/**
 * `GET /metrics` of a validator in Prometheus' text format (docs/operations.md, "Validator
 * metrics"), on a port of its own. Other paths answer 404, other methods 405, as the server's
 * metrics listener does.
 */
export async function startMetricsListener(registry: Registry, host: string, port: number): Promise<MetricsListener> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD');
      return send(405, 'text/plain; charset=utf-8', 'method not allowed\n');
    }
    if (path !== '/metrics') return send(404, 'text/plain; charset=utf-8', 'not found: this port serves /metrics\n');
    registry.metrics().then(
      (text) => send(200, registry.contentType, text),
      (error: unknown) => send(500, 'text/plain; charset=utf-8', `metrics failed: ${(error as Error).message}\n`),
    );
  });
  // A scrape is small and quick: a client that stalls is cut off rather than held.
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
